/** The payment engine on the journal, and the agent's money calls counted while they are past the door. */
import { CHANNELS } from '../../shared/ipc';
import type { Dispatch } from '../ipc';
import { PaymentEngine, type ConnectedService, type Journal } from '../payments';
import type { Emit } from './events';
import type { MainStackOptions } from './options';

/** The refund desk's word on re-sending a refund recovery found unanswered (its caps as they stand now). */
type MayResendRefund = NonNullable<ConstructorParameters<typeof PaymentEngine>[0]['mayResendRefund']>;

export function createEngine(
  service: ConnectedService,
  journal: Journal,
  options: MainStackOptions,
  mayResendRefund: MayResendRefund,
  emit: Emit,
): PaymentEngine {
  const engine = new PaymentEngine({
    config: service.config,
    secrets: service.secrets,
    journal,
    fetch: options.fetch,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.pollScheduleMs ? { pollSchedule: options.pollScheduleMs } : {}),
    // "Taken today" (the door's check before a new charge) is the desk's calendar day, as the screen's.
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    mayResendRefund,
  });
  engine.on((event) => emit('payments:changed', event.payment));
  return engine;
}

/** An agent's call that may begin or change a payment or a refund (the contract's operator calls on those channels). */
function movesMoney(channel: string): boolean {
  if (!Object.hasOwn(CHANNELS, channel)) return false;
  const spec = CHANNELS[channel as keyof typeof CHANNELS];
  return spec.activity === 'operator' && (channel.startsWith('payments:') || channel.startsWith('refunds:'));
}

/**
 * The agent's payment and refund calls past the door and not yet answered: one may still be checking the reservation
 * before the engine begins it (and so before engine.busy() says so); no restart to update meanwhile.
 */
export function countMoneyCalls(door: Dispatch): { dispatch: Dispatch; inFlight: () => number } {
  let moneyCalls = 0;
  return {
    // Each call's service request ids are given to it by the door (CallContext.trace) for its audit row: explicit, not an
    // AsyncLocalStorage, whose promise hooks slowed every await of the desk (bench:center).
    dispatch: (channel, sender, input) => {
      if (!movesMoney(channel)) return door(channel, sender, input);
      moneyCalls += 1;
      return door(channel, sender, input).finally(() => {
        moneyCalls -= 1;
      });
    },
    inFlight: () => moneyCalls,
  };
}
