/**
 * Copies text to the clipboard. The Clipboard API exists only in secure contexts (https or
 * localhost); elsewhere, or when it is refused, the text is copied from a hidden selection.
 * `near` is where the helper field goes: inside an open modal dialog, the rest is inert.
 */
export async function copyText(text: string, near: HTMLElement): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused: try the selection below.
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.readOnly = true;
  field.setAttribute('aria-hidden', 'true');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  near.append(field);
  field.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    field.remove();
    near.querySelector('button')?.focus();
  }
}
