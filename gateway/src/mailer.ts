import nodemailer from 'nodemailer';
import type { Logger } from '../../common/platform/logger';

export interface Mailer {
  sendSignInLink(to: string, url: string): Promise<void>;
}

/**
 * Sends the dashboard's sign-in links: over SMTP when `SMTP_URL` is set; otherwise, outside
 * production, by writing the link to the log; in production without SMTP, not at all (null:
 * operators hand out links with `admin login:link`).
 */
export function createMailer(
  smtpUrl: string | null,
  from: string,
  logger: Logger,
  production: boolean,
): Mailer | null {
  if (!smtpUrl) {
    if (production) return null;
    return {
      async sendSignInLink(to, url) {
        logger.info({ to, url }, 'sign-in link (development mail transport: not sent)');
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async sendSignInLink(to, url) {
      await transport.sendMail({
        from,
        to,
        subject: 'Your sign-in link',
        text: `Sign in to the Web Analytics dashboard:\n\n${url}\n\nThe link works once, within 15 minutes. If you did not ask for it, ignore this email.`,
      });
    },
  };
}
