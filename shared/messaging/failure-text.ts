/** A delivery failure told to the agent in the screen's language: what happened and what to do next. */
import type { MessageLanguage } from './destination';
import type { DeliveryFailureCode } from './views';

const TEXT: { readonly [C in DeliveryFailureCode]: { readonly [L in MessageLanguage]: string } } = {
  invalid_destination: {
    'en-US': 'The destination is not valid. Check it with the guest; nothing was sent.',
    'es-MX': 'El destino no es válido. Verifíquelo con el huésped; no se envió nada.',
  },
  invalid_link: {
    'en-US': 'The payment’s authentication link is not a secure (https) link, so it was not sent. Call IT.',
    'es-MX': 'El enlace de autenticación del pago no es seguro (https), así que no se envió. Llame a TI.',
  },
  no_link: {
    'en-US': 'This payment is not waiting for the cardholder’s authentication: there is no link to send.',
    'es-MX': 'Este pago no está esperando la autenticación del tarjetahabiente: no hay enlace que enviar.',
  },
  not_configured: {
    'en-US': 'This channel is not set up on this desk. Choose another channel, and ask IT to set it up.',
    'es-MX': 'Este canal no está configurado en este equipo. Elija otro canal y pida a TI que lo configure.',
  },
  bad_credentials: {
    'en-US': 'The messaging provider refused this desk’s credentials. Choose another channel and call IT.',
    'es-MX': 'El proveedor de mensajes rechazó las credenciales de este equipo. Elija otro canal y llame a TI.',
  },
  connection_refused: {
    'en-US': 'The messaging server refused the connection. Try again in a moment or choose another channel.',
    'es-MX': 'El servidor de mensajes rechazó la conexión. Intente de nuevo en un momento o elija otro canal.',
  },
  timeout: {
    'en-US': 'The messaging server did not answer in time. Try again or choose another channel.',
    'es-MX': 'El servidor de mensajes no respondió a tiempo. Intente de nuevo o elija otro canal.',
  },
  host_not_found: {
    'en-US': 'The messaging server’s address could not be found. Check the network, then call IT.',
    'es-MX': 'No se encontró la dirección del servidor de mensajes. Revise la red y llame a TI.',
  },
  tls_error: {
    'en-US': 'A secure connection to the messaging server could not be made. Choose another channel and call IT.',
    'es-MX': 'No se pudo establecer una conexión segura con el servidor de mensajes. Elija otro canal y llame a TI.',
  },
  network_error: {
    'en-US': 'The connection to the messaging server was lost. Try again or choose another channel.',
    'es-MX': 'Se perdió la conexión con el servidor de mensajes. Intente de nuevo o elija otro canal.',
  },
  rate_limited: {
    'en-US': 'The messaging provider is limiting how many messages this desk sends. Wait a minute and try again.',
    'es-MX': 'El proveedor de mensajes está limitando los envíos de este equipo. Espere un minuto e intente de nuevo.',
  },
  provider_rejected: {
    'en-US': 'The messaging provider refused this message. Check the destination with the guest or choose another channel.',
    'es-MX': 'El proveedor de mensajes rechazó este mensaje. Verifique el destino con el huésped o elija otro canal.',
  },
  provider_unavailable: {
    'en-US': 'The messaging provider is having problems. Try again in a few minutes or choose another channel.',
    'es-MX': 'El proveedor de mensajes tiene problemas. Intente de nuevo en unos minutos o elija otro canal.',
  },
  unexpected: {
    'en-US': 'The message could not be sent because of an unexpected error. Try again or choose another channel.',
    'es-MX': 'No se pudo enviar el mensaje por un error inesperado. Intente de nuevo o elija otro canal.',
  },
};

/** A short, actionable sentence for the agent in the screen's language (the result's `message` has the details for IT). */
export function describeDeliveryFailure(code: DeliveryFailureCode, language: MessageLanguage): string {
  return TEXT[code][language];
}
