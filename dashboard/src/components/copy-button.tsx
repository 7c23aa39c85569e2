import { useEffect, useRef, useState } from 'react';
import { copyText } from './copy-text';

/** Copies `text` to the clipboard; the button reads "Copied" for a few seconds after. */
export function CopyButton({
  text,
  label = 'Copy',
  autoFocus = false,
}: {
  text: string;
  label?: string;
  autoFocus?: boolean;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const wrapper = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 3000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    const copied = wrapper.current ? await copyText(text, wrapper.current) : false;
    setState(copied ? 'copied' : 'failed');
  }

  return (
    <span className="copy" ref={wrapper}>
      <button type="button" className="button" autoFocus={autoFocus} onClick={() => void copy()}>
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span role="status" className="copy-status">
        {state === 'failed' ? 'Copying failed: select the text and copy it yourself.' : ''}
      </span>
    </span>
  );
}
