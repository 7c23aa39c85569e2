/** The organization chosen in the header, kept per tab so a reload keeps it. */
const STORAGE_KEY = 'dashboard:organization';

export function storedOrganizationId(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storeOrganizationId(id: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, id);
  } catch {
    // Storage may be disabled; the choice then lasts until the page is reloaded.
  }
}
