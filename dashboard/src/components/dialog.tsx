import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal built on the native <dialog>: the browser keeps focus inside and closes it on Escape;
 * focus goes back to the control that opened it. The content is mounted only while open, so
 * each opening starts afresh.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  function handleClose() {
    opener.current?.focus();
    opener.current = null;
    if (open) onClose();
  }

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={handleClose}>
      <h2 id={titleId}>{title}</h2>
      {open && children}
    </dialog>
  );
}
