// What a channel of the contract is (its schemas, who may call it, how it counts for the idle lock, what the trail records), and the pieces every domain's channels are made of.
import { z } from 'zod';
import type { Access } from './access';

/**
 * How a call counts for the idle lock (PCI DSS 8.2.8). `operator`: the operator acting (a click, a submit); it
 * postpones the lock, but only once it passed validation and the role check. `background`: a call a screen makes by
 * itself (polling, refreshing after an event, the card form's protection switch); it never postpones the lock. Every
 * read a screen shows is `background`, whatever made it ask (opening, a push, a timer, a refetch, a filter typed): the
 * operator's own typing and pointing reach main as `session:activity`.
 */
export type Activity = 'operator' | 'background';

/** What main knows that a refused call's answer cannot say. */
export interface AuditLookup {
  /** The payment a refund request is for. */
  paymentOfRequest(requestId: string): string | undefined;
}

/**
 * What a call becomes in the audit trail: who, what, on what, with what outcome. The functions get the input as
 * the contract parsed it (a call refused before that is recorded as `call.refused`, without its input) and main's
 * answer when there is one. Only ids, amounts, statuses and choices: never card data, a secret or a token.
 */
export interface AuditRule<I, O> {
  /** `domain.verb`: session.signIn, payment.create, refund.approve… */
  action: string;
  /** The operator, for calls made before sign-in (the id typed). */
  actor?(input: I): string;
  resource?(input: I, output: O | undefined, lookup: AuditLookup): string | undefined;
  details?(input: I, output: O | undefined): Record<string, unknown>;
}

/** Every rule of a channel, in one place: leaving one out does not compile. */
export interface ChannelSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** Strict: unknown keys are refused. */
  input: I;
  /** Parsed in main before anything crosses: whatever the schema does not name is dropped. */
  output: O;
  access: Access;
  activity: Activity;
  /** `none`: a read (search, list, status) or a switch the trail does not record. */
  audit: AuditRule<z.output<I>, z.output<O>> | 'none';
}

/** A channel of the contract, its audit rule typed by its own input and output. */
export const channel = <I extends z.ZodType, O extends z.ZodType>(spec: ChannelSpec<I, O>): ChannelSpec<I, O> => spec;

export const defined = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
export const lower = (id: string): string => id.trim().toLowerCase();

export const none = z.strictObject({});
export const done = z.object({ ok: z.literal(true) });

/** One id per logical operation, made by the renderer when the agent starts it: retries reuse it. */
export const OperationId = z.uuid({ error: 'The operation id must be a UUID.' });

/** A call a screen makes by itself that the trail does not record: a read, or the card form's switch. */
export const background = <I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
  access: Access,
): ChannelSpec<I, O> => channel({ input, output, access, activity: 'background', audit: 'none' });
