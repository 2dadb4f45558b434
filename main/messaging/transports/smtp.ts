/**
 * E-mail over SMTP with nodemailer: STARTTLS required, implicit TLS, or no TLS to a relay on this computer;
 * AUTH with the password from the secret store when a user name is configured; a plain-text and an HTML body.
 * One connection per message (no pool): the password is read at each send, so a re-provisioned one is used at once.
 */
import nodemailer, { type NodemailerError } from 'nodemailer';
import type { SmtpSettings } from '../config';
import { DeliveryError, networkFailure } from '../errors';
import { readSecret, type Transport, type TransportDeps } from './types';

const DEFAULT_PORTS = { tls: 465, starttls: 587, none: 25 } as const;

function asNodemailerError(error: unknown): NodemailerError | undefined {
  return error instanceof Error ? error : undefined;
}

/** SMTP commands (and nodemailer's CONN for the greeting) that come before the message is handed over. */
const BEFORE_DATA = /^(?:CONN|EHLO|HELO|LHLO|STARTTLS|AUTH\b|MAIL FROM|RCPT TO)/i;

/** A nodemailer failure as a DeliveryError: SMTP replies by their class (4xx transient, 5xx permanent), then the network. */
export function smtpFailure(error: unknown, where: string): DeliveryError {
  const e = asNodemailerError(error);
  const reply = e?.responseCode;
  if (e?.code === 'EAUTH' || reply === 535 || reply === 534 || reply === 530) {
    if (reply === 454)
      return new DeliveryError(
        'provider_unavailable',
        `${where} could not check the sign-in right now (SMTP 454).`,
        true,
      );
    return new DeliveryError(
      'bad_credentials',
      `${where} refused this desk's sign-in${reply ? ` (SMTP ${reply})` : ''}. IT must check the SMTP user name and the stored password.`,
      false,
    );
  }
  if (e?.code === 'ENOAUTH')
    return new DeliveryError(
      'not_configured',
      `${where} needs a user name and password, and they are not complete.`,
      false,
    );
  if (e?.command === 'STARTTLS' && reply !== undefined) {
    return new DeliveryError(
      'tls_error',
      `${where} does not accept STARTTLS (SMTP ${reply}), which these settings require; nothing was sent unencrypted.`,
      false,
    );
  }
  if (reply !== undefined && reply >= 400) {
    const transient = e?.permanent === false || (reply >= 400 && reply < 500);
    const recipient = e?.command === 'RCPT TO' || e?.code === 'EENVELOPE';
    if (transient)
      return new DeliveryError(
        'provider_unavailable',
        `${where} could not take the message right now (SMTP ${reply}).`,
        true,
      );
    return new DeliveryError(
      'provider_rejected',
      `${where} refused the ${recipient ? 'recipient address' : 'message'} (SMTP ${reply}).`,
      false,
    );
  }
  const failure = networkFailure(error, where);
  // Before DATA the message itself has not left the desk: whatever the connection did, nothing can have been delivered.
  if (failure.mayHaveSent && e?.command !== undefined && BEFORE_DATA.test(e.command)) {
    return new DeliveryError(failure.code, failure.message, failure.retryable);
  }
  return failure;
}

export function smtpTransport(settings: SmtpSettings, deps: TransportDeps): Transport {
  const port = settings.port ?? DEFAULT_PORTS[settings.security];
  const where = `the SMTP server ${settings.host}:${port}`;
  const domain = settings.from.slice(settings.from.lastIndexOf('@') + 1);
  return {
    provider: 'smtp',
    async send(message) {
      const pass =
        settings.username === undefined ? undefined : await readSecret(deps.secrets, 'smtpPassword', 'SMTP password');
      const transporter = nodemailer.createTransport({
        host: settings.host,
        port,
        secure: settings.security === 'tls',
        requireTLS: settings.security === 'starttls',
        ignoreTLS: settings.security === 'none',
        ...(settings.username === undefined ? {} : { auth: { user: settings.username, pass } }),
        connectionTimeout: deps.timeoutMs,
        greetingTimeout: deps.timeoutMs,
        socketTimeout: deps.timeoutMs,
        dnsTimeout: deps.timeoutMs,
        tls: {
          minVersion: 'TLSv1.2',
          rejectUnauthorized: true,
          ...(settings.caCertificatePem === undefined ? {} : { ca: [settings.caCertificatePem] }),
        },
        disableFileAccess: true,
        disableUrlAccess: true,
        logger: false,
        debug: false,
      });
      try {
        const info = await transporter.sendMail({
          from: { name: settings.fromName ?? message.hotelName, address: settings.from },
          to: message.to,
          subject: message.rendered.subject ?? '',
          text: message.rendered.text,
          ...(message.rendered.html === undefined ? {} : { html: message.rendered.html }),
          // The same Message-ID on every try of one message: mail systems can tell a repeat.
          messageId: `<${message.id}@${domain}>`,
          headers: { 'Auto-Submitted': 'auto-generated', 'Content-Language': message.language },
        });
        if (info.rejected.length > 0)
          throw new DeliveryError('provider_rejected', `${where} refused the recipient address.`, false);
        // The mail server has it: nothing more will be known (a bounce goes to the sender's mailbox, not to the desk).
        return {
          providerMessageId: info.messageId,
          status: { status: 'sent', providerStatus: 'accepted', final: true },
        };
      } catch (error) {
        throw error instanceof DeliveryError ? error : smtpFailure(error, where);
      } finally {
        transporter.close();
      }
    },
  };
}
