import { useEffect } from 'react';

const APP_NAME = 'Analytics dashboard';

/** Sets the tab title to "<page> · Analytics dashboard" while the page is shown. */
export function useDocumentTitle(page: string | null): void {
  useEffect(() => {
    document.title = page ? `${page} · ${APP_NAME}` : APP_NAME;
  }, [page]);
}
