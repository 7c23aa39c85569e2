import type { Logger } from '../../common/platform/logger';
import { createMailTransport } from '../../common/platform/mail';

export interface Mailer {
  sendSignInLink(to: string, url: string): Promise<void>;
}

/**
 * Sends the dashboard's sign-in links through the platform's mail (common/platform/mail.ts): over
 * SMTP when `SMTP_URL` is set; otherwise, outside production, by writing the link to the log; in
 * production without SMTP, not at all (null: operators hand out links with `admin login:link`).
 */
export function createMailer(
  smtpUrl: string | null,
  from: string,
  logger: Logger,
  production: boolean,
): Mailer | null {
  const transport = createMailTransport({ smtpUrl, from, logger, production });
  if (!transport) return null;
  return {
    sendSignInLink: (to, url) =>
      transport.send(
        {
          to,
          subject: 'Your sign-in link',
          text: `Sign in to the Web Analytics dashboard:\n\n${url}\n\nThe link works once, within 15 minutes. If you did not ask for it, ignore this email.`,
        },
        'sign-in link',
        { url },
      ),
  };
}
