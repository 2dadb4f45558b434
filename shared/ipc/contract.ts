// The one IPC contract: every channel with its input and output schemas and the roles allowed to call it, and every event main sends.
import type { z } from 'zod';
import { APP_CHANNELS } from './app-channels';
import { LIVE_CHANNELS } from './live-channels';
import { MESSAGING_CHANNELS } from './messaging-channels';
import { PAYMENT_CHANNELS } from './payment-channels';
import { REFUND_CHANNELS } from './refund-channels';
import { REPORT_CHANNELS } from './report-channels';
import { RESERVATION_CHANNELS } from './reservation-channels';
import { SESSION_CHANNELS } from './session-channels';
import type { ChannelSpec } from './spec';
import { EVENTS } from './events';

export type { Access } from './access';
export type { Activity, AuditLookup, AuditRule, ChannelSpec } from './spec';
export { UpdateStatus } from './app-channels';
export { LiveState } from './live-channels';
export type { RefundOutcomeView } from './refund-channels';
export { EVENTS } from './events';

/** Every channel of the contract, each domain's in its own file: main/ipc/handlers.ts must answer each one to compile. */
export const CHANNELS = {
  ...APP_CHANNELS,
  ...SESSION_CHANNELS,
  ...RESERVATION_CHANNELS,
  ...PAYMENT_CHANNELS,
  ...MESSAGING_CHANNELS,
  ...REFUND_CHANNELS,
  ...REPORT_CHANNELS,
  ...LIVE_CHANNELS,
} as const satisfies Record<`${string}:${string}`, ChannelSpec>;
export type Channel = keyof typeof CHANNELS;
export type EventName = keyof typeof EVENTS;
export type Input<C extends Channel> = z.input<(typeof CHANNELS)[C]['input']>;
export type ParsedInput<C extends Channel> = z.output<(typeof CHANNELS)[C]['input']>;
export type Output<C extends Channel> = z.output<(typeof CHANNELS)[C]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof EVENTS)[E]>;

/** How every call's answer crosses: a value, or an error a person can read — never a stack. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: IpcError };
export interface IpcError {
  /** A stable name (snake_case) to branch on and to find the sentence in the desk's language. */
  code: string;
  /**
   * Not sent for a refusal: the renderer words it from `code` and `params` in the desk's language. Only the door's own
   * refusals before any capability ran may still carry one.
   */
  message?: string;
  /** The input field at fault, when one is. */
  field?: string;
  /** The numbers and names the message is made of (amounts in cents with their currency, minutes, a setting's name). */
  params?: ErrorParams;
}
/** Plain values only: what main wrote into a message, never what was typed. */
export type ErrorParams = Readonly<Record<string, string | number | boolean>>;

// The name lists live apart from the schemas so that the preload bundles no zod (test/shared/channels.test.ts keeps them equal).
export { CHANNEL_NAMES, EVENT_NAMES } from './channels';
