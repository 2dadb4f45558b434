/** Who can put each delivery failure right: the guest, the desk (the agent, now or a little later) or IT. The words are in the renderer's catalogues. */
import type { DeliveryFailureCode, FailureActor } from './views';

export const FAILURE_ACTORS: { readonly [C in DeliveryFailureCode]: FailureActor } = {
  // The guest's number or app: another number, or another channel.
  invalid_destination: 'guest',
  opted_out: 'guest',
  not_on_whatsapp: 'guest',
  unreachable: 'guest',
  // The desk: wait and send again, check with the guest, or use another channel.
  no_link: 'desk',
  undelivered: 'desk',
  rate_limited: 'desk',
  provider_unavailable: 'desk',
  connection_refused: 'desk',
  timeout: 'desk',
  network_error: 'desk',
  unconfirmed: 'desk',
  unexpected: 'desk',
  // IT: the account, the sender, the templates, the country permissions, the settings.
  invalid_link: 'it',
  not_configured: 'it',
  filtered: 'it',
  country_not_permitted: 'it',
  sender_not_set_up: 'it',
  account_restricted: 'it',
  template_rejected: 'it',
  bad_credentials: 'it',
  provider_rejected: 'it',
  host_not_found: 'it',
  tls_error: 'it',
};

export const actorOf = (code: DeliveryFailureCode): FailureActor => FAILURE_ACTORS[code];
