import type { TOutboxMessage } from "@cohort/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Transporter } from "nodemailer";
import type { Queryable } from "../db/client";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * The one seam for outgoing email (docs/conventions.md): SMTP through nodemailer when SMTP_URL
 * is set, otherwise the dev outbox — kept in the database, readable by admins, and logged
 * with its links so a developer can follow them from the console.
 */
export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
  /**
   * Sends without making the caller wait: a request's answer (and its timing) must not depend
   * on whether a mail went out, or an attacker could tell which addresses have accounts.
   * Failures are logged; `close` waits for what is still in flight.
   */
  sendLater(message: MailMessage): void;
  /** Resolves once every mail sent with sendLater so far has been delivered or has failed. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  db: Queryable;
  log: FastifyBaseLogger;
  /**
   * Outside production the dev outbox prints its links (verification, reset, invitation) whole,
   * in the line's message, so a developer can follow them from the console: the log's
   * redaction of secrets (decision 051) covers the line's fields, not its message. In
   * production they stay redacted and the admin area shows the mail.
   */
  printLinks: boolean;
}

const LINK_PATTERN = /https?:\/\/[^\s<>"]+/g;

export function createMailer(options: MailerOptions): Mailer {
  const deliver = options.smtpUrl
    ? smtpDelivery(options.smtpUrl, options.from)
    : outboxDelivery(options.db, options.log, options.printLinks);
  const inFlight = new Set<Promise<void>>();
  return {
    kind: options.smtpUrl ? "smtp" : "outbox",
    send: deliver.send,
    sendLater(message) {
      const pending = deliver
        .send(message)
        .catch((error: unknown) => {
          options.log.error({ err: error, subject: message.subject }, "sending email failed");
        })
        .finally(() => inFlight.delete(pending));
      inFlight.add(pending);
    },
    async settled() {
      await Promise.allSettled([...inFlight]);
    },
    async close() {
      await Promise.allSettled([...inFlight]);
      deliver.close();
    },
  };
}

interface Delivery {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

function smtpDelivery(url: string, from: string): Delivery {
  // nodemailer loads with the first email, so the dev-outbox default never pays for it.
  let transport: Promise<Transporter> | null = null;
  return {
    async send(message) {
      transport ??= import("nodemailer").then(({ createTransport }) => createTransport(url));
      await (await transport).sendMail({ from, ...message });
    },
    close: () => {
      void transport?.then((t) => t.close());
    },
  };
}

function outboxDelivery(db: Queryable, log: FastifyBaseLogger, printLinks: boolean): Delivery {
  return {
    async send(message) {
      await db.query(`INSERT INTO dev_outbox ("to", subject, text, html) VALUES ($1, $2, $3, $4)`, [
        message.to,
        message.subject,
        message.text,
        message.html,
      ]);
      const links = message.text.match(LINK_PATTERN) ?? [];
      const note = "dev outbox: email kept instead of sent (set SMTP_URL to send real email)";
      log.info(
        { to: message.to, subject: message.subject, links },
        printLinks && links.length > 0 ? `${note}; links: ${links.join(" ")}` : note,
      );
    },
    close: () => {},
  };
}

interface OutboxRow {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: Date;
}

/** The dev outbox, newest first. */
export async function listOutbox(db: Queryable, limit = 100): Promise<TOutboxMessage[]> {
  const { rows } = await db.query<OutboxRow>(
    `SELECT id, "to", subject, text, html, created_at FROM dev_outbox ORDER BY created_at DESC LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() }));
}
