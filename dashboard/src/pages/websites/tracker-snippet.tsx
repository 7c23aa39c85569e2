import { useId } from 'react';
import { CopyButton } from '../../components/copy-button';

/**
 * The facade serves the tracking script from another origin than the dashboard's: the gateway
 * names it in a meta tag of the page (PUBLIC_API_URL), else the build's VITE_TRACKER_ORIGIN.
 */
const TRACKER_ORIGIN = (
  document.querySelector<HTMLMetaElement>('meta[name="wa-api-origin"]')?.content ||
  import.meta.env.VITE_TRACKER_ORIGIN ||
  'http://127.0.0.1:3000'
).replace(/\/+$/, '');

const trackerSnippet = (trackingCode: string): string =>
  `<script defer src="${TRACKER_ORIGIN}/tracker.js" data-tracking-code="${trackingCode}"></script>`;

/** The script tag to paste into a website's pages, with "Copy snippet". */
export function TrackerSnippet({
  trackingCode,
  title,
  headingLevel = 3,
}: {
  trackingCode: string;
  title: string;
  headingLevel?: 2 | 3;
}) {
  const headingId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const snippet = trackerSnippet(trackingCode);
  return (
    <section aria-labelledby={headingId} className="snippet">
      <Heading id={headingId}>{title}</Heading>
      <pre data-testid="tracker-snippet">{snippet}</pre>
      <CopyButton text={snippet} label="Copy snippet" />
    </section>
  );
}
