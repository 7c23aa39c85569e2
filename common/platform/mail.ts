import nodemailer from 'nodemailer';
import type { Logger } from './logger';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface MailTransport {
  /**
   * Sends the mail; the development transport logs `logAs` with the recipient, the subject and
   * `fields` instead (a sign-in link's URL, say).
   */
  send(mail: Mail, logAs: string, fields?: Record<string, unknown>): Promise<void>;
}

export interface MailOptions {
  /** e.g. smtps://user:pass@smtp.example.com; null: not configured. */
  smtpUrl: string | null;
  from: string;
  logger: Logger;
  production: boolean;
}

/**
 * The platform's mail: over SMTP when `smtpUrl` is set; otherwise, outside production, written to
 * the log (the development transport: nothing is sent); in production without SMTP, null (no
 * mail at all: the caller says what that means).
 */
export function createMailTransport(options: MailOptions): MailTransport | null {
  const { smtpUrl, from, logger, production } = options;
  if (!smtpUrl) {
    if (production) return null;
    return {
      async send(mail, logAs, fields = {}) {
        logger.info(
          { to: mail.to, subject: mail.subject, ...fields },
          `${logAs} (development mail transport: not sent)`,
        );
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}
