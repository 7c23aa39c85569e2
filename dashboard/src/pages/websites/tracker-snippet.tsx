import { useId } from 'react';
import { CopyButton } from '../../components/copy-button';

/**
 * The facade serves the tracking script; its origin is not the dashboard's, and no GraphQL
 * field gives it, so it is set at build time.
 */
const TRACKER_ORIGIN = (import.meta.env.VITE_TRACKER_ORIGIN || 'http://127.0.0.1:3000').replace(
  /\/+$/,
  '',
);

export const trackerSnippet = (trackingCode: string): string =>
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
