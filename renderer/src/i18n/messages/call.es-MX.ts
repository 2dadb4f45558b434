// La llamada del agente: búsqueda y resumen de la reservación, lo que se adeuda, tarjetas guardadas, pagos en curso y sin respuesta, avisos recuperados y la bandeja de capacitación.
import type { CataloguePart } from '../catalogue';
import type { callEnUS } from './call.en-US';

export const callEsMX: CataloguePart<typeof callEnUS> = {
  'lookup.title': 'Buscar una reservación',
  'lookup.label': 'Número de confirmación, nombre del huésped, teléfono o correo',
  'lookup.hint':
    'También la referencia corta de un pago (9D21‑F5A0) o parte de un número; palabras en cualquier orden. Enter abre la primera coincidencia.',
  'lookup.none': 'Ninguna reservación coincide con la búsqueda.',
  'lookup.results': 'Reservaciones encontradas',
  'lookup.balance': 'saldo',
  'reservation.close': 'Cerrar reservación',
  'reservation.hotel': 'Hotel',
  'reservation.stay': 'Estancia',
  'reservation.balance': 'Saldo pendiente',
  'reservation.phone': 'Teléfono',
  'reservation.email': 'Correo',
  'reservation.missing': 'no registrado',
  'reservation.payments': 'Pagos de esta reservación',
  'reservation.noPayments': 'Aún no hay pagos.',
  'reservation.when': 'Fecha',
  'reservation.amount': 'Monto',
  'reservation.status': 'Estado',
  'reservation.paymentId': 'ID del pago',
  'pending.title': 'Un pago sin respuesta',
  'pending.help': 'El pago anterior de {amount} aún no tiene respuesta; se está verificando — no cobre de nuevo.',
  'pending.msi': 'meses sin intereses',
  'pending.started': 'Enviado',
  'pending.checkAgain': 'Verificar de nuevo',
  'pending.stillUnanswered':
    'El pago de {amount} sigue sin respuesta. No cobre de nuevo; vuelva a verificar en un momento.',
  'pending.reconcileTitle': 'Un pago que nunca tuvo respuesta',
  'pending.reconcile':
    'El pago de {amount} enviado el {when} no tuvo respuesta en 24 horas. Un supervisor debe averiguar con el servicio si se cobró.',
  'pending.reconcileNoCharge':
    'No se puede cobrar de nuevo en esta reservación hasta que un supervisor lo resuelva: pudo haberse cobrado. Diga al huésped: “Estamos confirmando con el banco un pago anterior; le llamaremos antes de cobrar cualquier cosa.”',
  'pending.reconcileCallSupervisor':
    'Llame a un supervisor: averigua con el servicio de pagos qué pasó y lo resuelve aquí.',
  'pending.resolveChecked': 'Lo verifiqué con el servicio de pagos: no se cobró',
  'pending.resolveNotCharged': 'No se cobró: liberar la reservación',
  'pending.resolvePaymentId': 'Se cobró como el pago (ID del servicio)',
  'pending.resolveCharged': 'Registrar ese pago',
  'amount.notNumber': 'Escriba el monto como número, por ejemplo 1234.50.',
  'amount.tooSmall': 'El monto debe ser de al menos 0.01.',
  'amount.tooLarge': 'El monto puede ser como máximo 999,999.99.',
  'amount.cents': 'El monto puede tener como máximo dos decimales (centavos).',
  'saved.title': 'Tarjetas guardadas',
  'saved.expiry': 'vence {month}/{year}',
  'saved.savedUntil': 'guardada hasta {when}',
  'saved.expired': 'vencida',
  'saved.chargeLabel': 'Cobrar con {card}',
  'recovered.title': 'Completado después del reinicio',
  'recovered.payment': 'El pago de {amount} tomado a las {time} se realizó después del reinicio.',
  'recovered.paymentDeclined':
    'El pago de {amount} tomado a las {time} recibió respuesta después del reinicio: {status}.',
  'recovered.refund': 'El reembolso de {amount} hecho a las {time} se realizó después del reinicio.',
  'recovered.reservation': 'Reservación {reservation}',
  'recovered.acknowledge': 'Enterado',
  'saved.confirm': '¿Cobrar {amount} a {card}?',
  'saved.confirmCharge': 'Cobrar {amount}',
  'saved.confirmKeys': 'Enter cobra a la tarjeta; Esc regresa.',
  'wait.elapsed': 'Esperando {time}',
  'wait.linkValid': 'El enlace funciona {time} más',
  'wait.linkExpired': 'El enlace venció: abandone este pago y use otra tarjeta.',
  'wait.tellGuest': 'Diga al huésped:',
  'wait.say.link':
    '“Le enviamos un enlace de su banco. Por favor ábralo en su teléfono y apruebe el pago; sigo en la línea.”',
  'wait.say.processing': '“Su banco está confirmando el pago; tarda un momento. Por favor permanezca en la línea.”',
  'wait.abandon': 'Abandonar y usar otra tarjeta',
  'wait.abandonHelp':
    'El pago se deja vencer sin cobrar: no se cobra nada con él. Pida al huésped que ignore el enlace ya enviado.',
  'abandoned.title': 'Un pago abandonado se aprobó de todos modos',
  'abandoned.processing':
    'El huésped aprobó el pago de {amount} abandonado a las {when}, con el enlace ya enviado: se está cobrando ahora. No cobre otra tarjeta hasta que tenga su resultado.',
  'lateSuccess.title': 'Un pago abandonado se cobró después de todo',
  'lateSuccess.text':
    'El huésped aprobó el pago de {amount} de la reservación {reservation} que usted abandonó, con el enlace ya enviado: se cobró. El pago {replacement} lo reemplazó, así que el huésped pagó dos veces; un reembolso de {amount} espera en la cola de supervisores. Avise al huésped.',
  'lateSuccess.textNoReplacement':
    'El huésped aprobó el pago de {amount} de la reservación {reservation} que usted abandonó, con el enlace ya enviado: se cobró. Ningún otro pago lo había reemplazado: no le cobre de nuevo por él. Un supervisor lo revisa en la cola.',
  'lateSuccess.dismiss': 'Entendido',
  'abandoned.succeeded':
    'El huésped aprobó el pago de {amount} abandonado a las {when}, con el enlace ya enviado, y se completó. Si también se cobró otra tarjeta por él, uno de los dos cobros debe reembolsarse: pida ayuda a un supervisor.',
  'wait.abandonUnknown':
    'El servicio de pagos no pudo decir si este pago se completó, así que no se abandonó y todavía no se puede cobrar otra tarjeta. Intente de nuevo en un minuto. A más tardar a las {time} el enlace deja de funcionar y el pago vence sin cobrarse; entonces podrá cobrar otra tarjeta.',
  'reservation.balanceBefore': '{amount} antes de los pagos tomados aquí',
  'outbox.title': 'Bandeja de capacitación',
  'outbox.help':
    'En capacitación, los mensajes a huéspedes se guardan aquí en lugar de enviarse. Haga de tarjetahabiente: apruebe o rechace la verificación.',
  'outbox.empty': 'Aún no hay mensajes.',
  'outbox.approve': 'El tarjetahabiente aprueba',
  'outbox.decline': 'El tarjetahabiente rechaza',
  'outbox.state.waiting': 'Esperando al tarjetahabiente.',
  'outbox.state.approved': 'El tarjetahabiente aprobó.',
  'outbox.state.declined': 'El tarjetahabiente rechazó.',
  'outbox.state.link_closed': 'El enlace ya se usó o venció.',
  'outbox.state.link_unknown': 'El servicio de capacitación ya no conoce el enlace.',
  'reservation.card': 'Tarjeta',
  'reservation.receipt': 'Recibo',
  'reservation.sendReceipt': 'Enviar un recibo',
  'reservation.attempt.unanswered': 'Sin respuesta — verificando',
  'reservation.attempt.reconcile': 'Sin respuesta — debe revisarlo un supervisor',
  'pending.say':
    '“Estamos confirmando su pago con el banco; no se le cobrará dos veces. Por favor permanezca en la línea un momento.”',
  'pending.whenSupervisor':
    'Si sigue sin respuesta después de {checks} verificaciones o {minutes} minutos, llame a un supervisor.',
  'pending.callSupervisor':
    'Llame a un supervisor ahora: el pago lleva {minutes} min sin respuesta. No cobre de nuevo, ni con otra tarjeta. Si el huésped no puede esperar, confirme su teléfono y dígale: “Le llamaremos en cuanto el banco confirme; no se le cobrará dos veces.”',
  'pending.callSupervisorChecks':
    'Llame a un supervisor ahora: el pago sigue sin respuesta después de {checks} verificaciones. No cobre de nuevo, ni con otra tarjeta. Si el huésped no puede esperar, confirme su teléfono y dígale: “Le llamaremos en cuanto el banco confirme; no se le cobrará dos veces.”',
  'wait.say.beforeLink':
    '“Su banco pide que confirme este pago. Le voy a enviar un enlace: ¿a qué teléfono o correo se lo envío?”',
  'wait.abandonHelpNoLink': 'El pago se deja vencer sin cobrar: no se cobra nada con él.',
  'outbox.state.settled': 'Este pago ya terminó ({status}): el tarjetahabiente ya no tiene nada que responder.',
  'owed.overpaid': 'Pagado de más',
  'owed.overpaidHelp':
    'El huésped pagó más que el saldo. No cobre de nuevo: pida a un supervisor que reembolse la diferencia.',
  'owed.closed': 'Reservación cerrada',
  'owed.nothing': 'nada por cobrar (cancelación reembolsada)',
  'owed.closedHelp': 'Un reembolso por cancelación cerró esta reservación: no la cobre de nuevo.',
};
