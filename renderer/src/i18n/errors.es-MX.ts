/** Los rechazos de main en español de México (usted), uno por código de error (`error.<código>`), con los mismos `{marcadores}` que en inglés. */
import type { Catalogue } from './catalogue';
import type { errorsEnUS } from './errors.en-US';

export const errorsEsMX: { readonly [K in keyof typeof errorsEnUS]: Catalogue[K] } = {
  'error.unknown':
    'La aplicación no pudo hacer esto (código {code}). Intente de nuevo; si vuelve a ocurrir, avise a TI.',
  'error.unexpected': 'Algo salió mal en la aplicación. Intente de nuevo; si vuelve a ocurrir, avise a TI.',

  'error.forbidden_sender': 'Esta ventana no puede usar la aplicación.',
  'error.unknown_channel': 'La aplicación no ofrece esto.',
  'error.invalid_input': 'Algo en el formulario no es válido. Revise los campos e intente de nuevo.',
  'error.invalid_input.field': '{field}: este valor no es válido. Revíselo e intente de nuevo.',
  'error.signed_out': 'Inicie sesión para continuar.',
  'error.forbidden': 'Su rol no permite hacer esto.',
  'error.internal': 'Algo salió mal en la aplicación. Intente de nuevo; si vuelve a ocurrir, avise a TI.',

  'error.already_exists': 'Ya existe una cuenta con este ID. Elija otro ID.',
  'error.not_found': 'No se encontró lo que pidió: puede que se haya eliminado. Actualice e intente de nuevo.',
  'error.last_admin':
    'Esto dejaría el escritorio sin un administrador activo. Primero haga administradora a otra cuenta.',
  'error.setup_done': 'El primer administrador ya existe. Inicie sesión.',
  'error.invalid_credentials': 'El ID de operador o la contraseña no son correctos.',
  'error.invalid_input.password': 'La contraseña necesita al menos 12 caracteres, con letras y dígitos.',
  'error.locked':
    'Esta cuenta está bloqueada por demasiados intentos fallidos. Intente de nuevo en {minutes} min o pida a un administrador que restablezca la contraseña.',
  'error.locked.plain': 'TI administra este ajuste: no se puede cambiar aquí.',
  'error.disabled': 'Esta cuenta está desactivada. Consulte a un administrador.',
  'error.not_signed_in': 'Nadie ha iniciado sesión en este escritorio. Inicie sesión para continuar.',
  'error.session_locked': 'El escritorio está bloqueado. Inicie sesión de nuevo para continuar.',
  'error.session_active': 'Otra persona inició sesión en este escritorio mientras tanto. Primero cierre la sesión.',
  'error.session_active.signedIn': '{signedIn} tiene la sesión abierta en este escritorio. Primero cierre la sesión.',
  'error.session_active.lockedFor':
    'El escritorio está bloqueado para {lockedFor}. Para usarlo usted, elija "Iniciar sesión con otro usuario" (su sesión termina; los datos de tarjeta ya se borraron).',
  'error.not_locked': 'La sesión está abierta: esa persona debe cerrarla.',
  'error.session_elsewhere':
    'Usted tiene una sesión abierta en otro escritorio. Ciérrela allí, o termine esa sesión e inicie sesión aquí.',
  'error.session_elsewhere.deskId':
    'Usted tiene una sesión abierta en el escritorio {deskId} desde {sinceAt}. Ciérrela allí, o termine esa sesión e inicie sesión aquí.',
  'error.session_ended_elsewhere':
    'Su sesión en este escritorio se terminó desde otro escritorio. Inicie sesión de nuevo para continuar aquí.',
  'error.session_ended_elsewhere.deskId':
    'Su sesión en este escritorio se terminó cuando usted inició sesión en el escritorio {deskId} ({sinceAt}). Inicie sesión de nuevo para continuar aquí.',

  'error.payment_in_progress':
    'Un pago de este escritorio sigue en curso: la aplicación no puede reiniciarse ahora. Intente de nuevo al terminar la llamada.',
  'error.not_ready': 'Todavía no hay una actualización descargada para instalar.',

  'error.refund_limit':
    'Este reembolso es de {amount}; como {role} puede reembolsar hasta {limit} por vez. Debe hacerlo un administrador.',
  'error.refund_limit.plain': 'Este reembolso supera su límite por reembolso. Debe hacerlo un administrador.',
  'error.refund_daily_limit':
    'Este reembolso es de {amount}; como {role} puede reembolsar hasta {limit} al día y hoy ya reembolsó {refunded} (quedan {left}). Debe hacerlo un administrador.',
  'error.refund_daily_limit.plain':
    'Este reembolso supera lo que todavía puede reembolsar hoy. Debe hacerlo un administrador.',
  'error.refund_exceeds_remaining': 'Solo quedan {left} por reembolsar en este pago.',
  'error.refund_exceeds_remaining.plain': 'El reembolso supera lo que queda por reembolsar en este pago.',
  'error.payment_not_refundable': 'Solo se puede reembolsar un pago cobrado.',
  'error.refund_amount_unknown':
    'El servicio registra un reembolso de este pago sin su monto, así que no se puede saber cuánto queda. Abra el pago de nuevo más tarde antes de reembolsar.',
  'error.refund_amount_changed':
    'Usted confirmó un reembolso de {expected}, pero lo que queda por reembolsar en este pago ahora es {amount}: mientras tanto se hizo otro reembolso. No se reembolsó nada. Revise el monto de nuevo y confírmelo.',
  'error.refund_amount_changed.plain':
    'Lo que queda por reembolsar en este pago cambió desde que lo revisó: mientras tanto se hizo otro reembolso. No se reembolsó nada. Revise el monto de nuevo y confírmelo.',
  'error.request_not_found': 'Esta solicitud de reembolso ya no existe.',
  'error.request_closed': 'Esta solicitud de reembolso ya se aprobó o se rechazó.',
  'error.request_closed.approvedBy': 'Esta solicitud de reembolso ya la aprobó {approvedBy} el {approvedAt}.',
  'error.request_closed.rejectedBy': 'Esta solicitud de reembolso ya la rechazó {rejectedBy} el {rejectedAt}.',
  'error.request_changed': 'Esta solicitud de reembolso cambió desde que la abrió. Ábrala de nuevo.',
  'error.approver_not_allowed': 'Este supervisor no puede aprobar este reembolso.',
  'error.override_paused':
    'La autorización con la contraseña de este supervisor está en pausa durante {minutes} min, en todos los escritorios, por demasiadas contraseñas incorrectas seguidas. Otro supervisor puede autorizar, o la solicitud puede aprobarse desde Aprobaciones mientras tanto.',
  'error.override_paused.plain':
    'La autorización con la contraseña de este supervisor está en pausa unos minutos, en todos los escritorios, por demasiadas contraseñas incorrectas seguidas. Otro supervisor puede autorizar, o la solicitud puede aprobarse desde Aprobaciones mientras tanto.',
  'error.same_person': 'Quien pidió un reembolso no puede aprobarlo.',

  'error.invalid_settings': 'Un ajuste tiene un valor no permitido. Avise a TI.',
  'error.managed_file_invalid': 'El archivo de ajustes que administra TI en este escritorio está dañado. Avise a TI.',
  'error.managed_file_unreadable':
    'No se puede leer el archivo de ajustes que administra TI en este escritorio. Avise a TI.',
  'error.user_file_invalid': 'El archivo de ajustes de este escritorio está dañado. Avise a TI.',
  'error.user_file_unreadable': 'No se puede leer el archivo de ajustes de este escritorio. Avise a TI.',
  'error.encryption_unavailable': 'El almacenamiento seguro de la computadora no se puede usar ahora. Avise a TI.',
  'error.insecure_backend':
    'Esta computadora no tiene almacenamiento seguro para los secretos de la aplicación. Avise a TI.',
  'error.encryption_failed': 'El almacenamiento seguro de la computadora no aceptó guardar un secreto. Avise a TI.',
  'error.needs_reprovisioning':
    'Los secretos guardados de la aplicación ya no se pueden leer en esta computadora: TI debe configurarlos de nuevo.',
  'error.data_folder_in_use':
    'TI está pasando los registros de este escritorio al centro, o la aplicación ya está abierta en esta computadora. Espere a que TI avise que terminó y vuelva a iniciar la aplicación.',
  'error.store_unreadable': 'No se puede leer el almacén de secretos de la aplicación. Avise a TI.',
  'error.invalid_value': 'El valor está vacío o es demasiado largo.',
  'error.center_unavailable':
    'No se puede conectar con la base de datos del centro en este momento. Espere un momento e intente de nuevo; si continúa, avise a TI.',
  'error.center_tls_failed': 'Falló la conexión segura con la base de datos del centro. Avise a TI.',
  'error.center_login_refused': 'La base de datos del centro rechazó este escritorio. Avise a TI.',
  'error.center_not_ready': 'La base de datos del centro no está preparada para esta aplicación. Avise a TI.',
  'error.center_permission_denied': 'La base de datos del centro no permite que este escritorio haga esto. Avise a TI.',
  'error.store_from_newer_app':
    'Los datos los escribió una versión más nueva de la aplicación. Instale la versión más reciente.',
  'error.store_migration_failed': 'La aplicación no pudo actualizar sus datos; no se cambió nada. Avise a TI.',
  'error.desk_id_damaged': 'El archivo de identidad de este escritorio está dañado. Avise a TI.',
  'error.desk_id_in_use':
    'El identificador de este escritorio ya lo usa otra computadora en el centro: el archivo desk.json de este escritorio fue copiado. Avise a TI: en la computadora que es la copia, borre desk.json de la carpeta de datos de la aplicación e iníciela de nuevo, para que genere su propio identificador.',
  'error.desk_id_in_use.deskId':
    'El identificador de este escritorio, {deskId}, ya lo usa otra computadora en el centro ({host}): el archivo desk.json de este escritorio fue copiado. Avise a TI: en la computadora que es la copia, borre desk.json de la carpeta de datos de la aplicación e iníciela de nuevo, para que genere su propio identificador.',

  'error.desk_credential_mismatch':
    'El acceso de este escritorio al centro pertenece a otro escritorio. Avise a TI: cada escritorio necesita su propia credencial del centro (docs/center/add-desk.sql).',
  'error.desk_credential_mismatch.deskId':
    'Este escritorio ({deskId}) entra al centro con una credencial que pertenece a otro escritorio. Avise a TI: cada escritorio necesita su propia credencial del centro (docs/center/add-desk.sql).',

  'error.training_only': 'Esto solo está disponible en capacitación.',
  'error.unknown_message': 'Este mensaje ya no está en la bandeja de salida.',
  'error.invalid_config': 'La mensajería no está bien configurada en este escritorio. Avise a TI.',
  'error.invalid_request': 'No se pudo enviar el mensaje como se pidió. Revise el destino e intente de nuevo.',
  'error.simulator_unreachable': 'No se puede conectar con el simulador de capacitación. Reinicie la aplicación.',

  'error.invalid_query': 'Escriba un número de confirmación, el nombre del huésped o un teléfono.',
  'error.configuration': 'El sistema de reservaciones no está bien configurado en este escritorio. Avise a TI.',
  'error.unreachable': 'No se puede conectar con el sistema de reservaciones. Revise la red e intente de nuevo.',
  'error.timeout': 'El servicio no respondió a tiempo. Intente de nuevo.',
  'error.unauthorized': 'El sistema de reservaciones rechazó las credenciales de este escritorio. Avise a TI.',
  'error.unavailable': 'El servicio no está disponible en este momento. Intente de nuevo en un momento.',
  'error.rejected': 'El sistema de reservaciones rechazó la solicitud. Si vuelve a ocurrir, avise a TI.',
  'error.bad_response':
    'El sistema de reservaciones respondió en una forma que esta aplicación no entiende. Avise a TI.',
  'error.storage': 'No se pudo leer ni escribir el archivo de reservaciones. Avise a TI.',
  'error.closed': 'El sistema de reservaciones se está cerrando. Intente de nuevo.',

  'error.missing_secret': 'Este escritorio no tiene configurado el secreto del cliente. Pida a TI que lo configure.',
  'error.network_error': 'No se puede conectar con el servicio de pagos. Revise la red e intente de nuevo.',
  'error.unexpected_response':
    'El servicio de pagos respondió en una forma que esta aplicación no entiende. Intente de nuevo; si vuelve a ocurrir, avise a TI.',
  'error.attempt_not_found': 'No hay un intento de pago con este ID en este escritorio.',
  'error.invalid_state': 'El pago ya no está en un estado que permita esto. Revise su estado.',
  'error.amount_changed':
    'El servicio de pagos tiene ahora otro monto para este pago que el de su pantalla. Confirme el monto con el huésped antes de continuar.',
  'error.payment_not_on_desk': 'Este pago no se tomó en este escritorio: no se puede abandonar aquí.',
  'error.abandon_outcome_unknown':
    'El servicio de pagos no pudo decir si este pago se cobró, así que no se abandona y todavía no se puede hacer un cargo nuevo. Intente de nuevo en un momento.',
  'error.payment_already_succeeded': 'Este pago de {amount} se cobró: no se puede abandonar. No cobre de nuevo.',
  'error.payment_already_succeeded.plain': 'Este pago se cobró: no se puede abandonar. No cobre de nuevo.',
  'error.payment_being_charged':
    'Se está cobrando {amount} a la tarjeta en este momento: espere el resultado antes de usar otra tarjeta.',
  'error.payment_being_charged.plain':
    'Se está cobrando a la tarjeta en este momento: espere el resultado antes de usar otra tarjeta.',
  'error.earlier_refund_completed':
    'Un reembolso anterior de este pago no tenía respuesta; se envió de nuevo y ya tiene respuesta. Revise cuánto queda antes de reembolsar otra vez.',
  'error.refund_in_flight':
    'Otro reembolso de este pago se está enviando en este momento, en este escritorio o en otro. Espere su respuesta y revise cuánto queda antes de reembolsar otra vez.',
  'error.payment_unanswered':
    'El pago anterior de {amount} de esta reservación todavía no tiene respuesta; se está verificando. Espérela antes de cobrar de nuevo.',
  'error.payment_unanswered.plain':
    'Un pago anterior de esta reservación todavía no tiene respuesta. Espérela antes de cobrar de nuevo.',
  'error.charges_not_acknowledged':
    'A esta reservación ya se le cobraron {amount} hoy, y ese cargo no estaba en su pantalla. Revise con el huésped los cargos que se muestran ahora y cobre solo si aún debe algo.',
  'error.charges_not_acknowledged.plain':
    'A esta reservación ya se le cobró hoy, y ese cargo no estaba en su pantalla. Revise con el huésped los cargos que se muestran ahora y cobre solo si aún debe algo.',
  'error.refunds_not_acknowledged':
    'Este pago ya tiene un reembolso de {amount}, y ese reembolso no estaba en su pantalla. Revise los reembolsos que se muestran ahora antes de reembolsar de nuevo.',
  'error.refunds_not_acknowledged.plain':
    'Este pago ya tiene un reembolso, y ese reembolso no estaba en su pantalla. Revise los reembolsos que se muestran ahora antes de reembolsar de nuevo.',
  'error.reservation_payment_in_progress':
    'El pago de {amount} de esta reservación sigue en curso: espere su resultado, o abandónelo, antes de hacer otro cargo.',
  'error.reservation_payment_in_progress.plain':
    'Un pago de esta reservación sigue en curso: espere su resultado, o abandónelo, antes de hacer otro cargo.',
  'error.currency_not_reservation':
    'Moneda: esta reservación está en {reservationCurrency} y el cobro debe hacerse en la moneda de la reservación, no en {currency}. No se cobró nada. Cobre el monto en {reservationCurrency}.',
  'error.currency_not_reservation.plain':
    'Moneda: el cobro debe hacerse en la moneda de la reservación. No se cobró nada. Abra de nuevo la reservación y cobre en su moneda.',
  'error.reservation_unknown':
    'Reservación: el sistema de reservaciones no reconoce este número de reservación y solo se cobra en una reservación que reconoce. No se cobró nada. Busque de nuevo la reservación y cobre desde ahí.',
  'error.over_balance_not_confirmed':
    'Monto: {amount} es más de los {owed} que aún debe esta reservación, y un cobro mayor a lo que se debe necesita que usted confirme ambos montos. No se cobró nada. Revise el monto con el huésped; para cobrarlo de todos modos, marque la confirmación debajo del monto y cobre de nuevo.',
  'error.over_balance_not_confirmed.plain':
    'Monto: el cobro es mayor a lo que esta reservación debe ahora. No se cobró nada. Revise con el huésped el monto que se muestra ahora; para cobrar más, marque la confirmación debajo del monto y cobre de nuevo.',
  'error.card_not_offered':
    'No se puede cobrar de nuevo a esta tarjeta: fue rechazada, el huésped no aceptó guardarla o se guardó para otra reservación. Capture la tarjeta de nuevo.',
  'error.receipt_not_available': 'Solo un pago que se completó tiene recibo.',
  'error.operation_changed': 'Esta operación ya se inició con otros datos. Inicie una nueva.',
  'error.payment_needs_reconciliation':
    'Un pago anterior de {amount} de esta reservación nunca tuvo respuesta y pudo haberse cobrado. No se puede cobrar de nuevo hasta que un supervisor lo averigüe con el servicio y lo resuelva.',
  'error.payment_needs_reconciliation.plain':
    'Un pago anterior de esta reservación nunca tuvo respuesta y pudo haberse cobrado. No se puede cobrar de nuevo hasta que un supervisor lo averigüe con el servicio y lo resuelva.',
  'error.attempt_not_to_reconcile': 'Este intento de pago no espera a un supervisor: vuelva a abrir la reservación.',
  'error.payment_does_not_match':
    'Ese pago no es el que habría hecho este intento (otra reservación, monto, moneda o tarjeta). Verifique el ID del pago con el servicio.',
  'error.operation_needs_reconciliation':
    'Esta operación nunca tuvo respuesta y un supervisor debe revisarla. No la inicie de nuevo.',
  'error.operation_closed': 'Esta operación se cerró tras un reinicio. Inicie una nueva.',
  'error.operation_too_old': 'Esta operación tiene más de 24 horas; un supervisor debe revisarla.',
  'error.payment_abandoned': 'Este pago se abandonó: se deja vencer. Tome un pago nuevo.',
  'error.payment_change_in_progress':
    '{operatorId} está modificando este pago en este momento (en el escritorio {deskId}). Espere a que termine, abra el pago de nuevo e intente otra vez.',
  'error.payment_change_in_progress.plain':
    'Alguien está modificando este pago en este momento, en este escritorio o en otro. Espere a que termine, abra el pago de nuevo e intente otra vez.',
  'error.confirmed_amount_differs':
    'El servicio de pagos confirmó este pago por {charged}, no por los {expected} de su pantalla. Avise al huésped; si se cobró de más, el reembolso de la diferencia espera en la cola de supervisores.',
  'error.confirmed_amount_differs.plain':
    'El servicio de pagos confirmó este pago por otro monto que el de su pantalla. Avise al huésped y a un supervisor.',

  // A code of the service this app does not know: main sends it as `serviceCode` (shared/ipc/errors.ts).
  'error.service_refused':
    'El servicio de pagos rechazó la solicitud ({serviceCode}). Intente de nuevo; si vuelve a ocurrir, avise a TI.',
  'error.service_refused.plain':
    'El servicio de pagos rechazó la solicitud. Intente de nuevo; si vuelve a ocurrir, avise a TI.',
  'error.internal_error': 'El servicio de pagos tuvo un problema. Intente de nuevo en un momento.',
  'error.invalid_token':
    'El servicio de pagos no aceptó el acceso de la aplicación. Intente de nuevo; si vuelve a ocurrir, avise a TI.',
  'error.invalid_client': 'El servicio de pagos rechazó las credenciales de este escritorio. Avise a TI.',
  'error.unsupported_grant_type': 'El servicio de pagos rechazó el acceso de la aplicación. Avise a TI.',
  'error.validation_error':
    'El servicio de pagos rechazó la solicitud por no ser válida. Revise los datos e intente de nuevo.',
  'error.idempotency_conflict': 'Esta operación ya se envió con otros datos. Iníciela de nuevo.',
  'error.idempotency_in_progress': 'El servicio de pagos sigue trabajando en esta solicitud. Espere un momento.',
  'error.method_expired': 'Esta tarjeta guardada ya no se puede usar. Pida una tarjeta al huésped.',
  'error.invalid_installments':
    'Este plan de meses no se ofrece para esta tarjeta. Elija otro plan o pague en una sola exhibición.',
  'error.installments_unavailable':
    'Los meses sin intereses no se ofrecen para esta tarjeta o este monto. Cobre en una sola exhibición o pida otra tarjeta.',
  'error.rate_limited': 'El servicio de pagos está ocupado. Intente de nuevo en un momento.',

  // What main answers about an attempt, worded here (main's view carries an English message too).
  'pending.refused': 'El servicio rechazó el pago de {amount}: no se cobró nada.',

  // Where to send the 3DS link, checked before anything is sent (shared/messaging/destination).
  'destination.phone_missing': 'Escriba el celular del huésped.',
  'destination.phone_characters':
    'Un teléfono solo puede tener dígitos, espacios, guiones, puntos y paréntesis después del +.',
  'destination.phone_no_country':
    'Escriba el número con su código de país, empezando con + (por ejemplo +52 55 1234 5678).',
  'destination.phone_invalid': 'Este no es un teléfono válido: revise el código de país y la cantidad de dígitos.',
  'destination.phone_landline':
    'Es un teléfono fijo o de servicio, que no puede recibir mensajes: pida al huésped un celular.',
  'destination.email_missing': 'Escriba el correo electrónico del huésped.',
  'destination.email_too_long': 'Un correo electrónico puede tener como máximo {max} caracteres.',
  'destination.email_invalid':
    'Este no es un correo electrónico válido: revíselo con el huésped (por ejemplo maria@example.com).',

  // The app's name: the window title and the headers.
  'app.title': 'Escritorio de pagos con tarjeta',

  // The app's own check of a form (no browser bubbles): the field named by its label.
  'form.required': '{field}: este dato es obligatorio.',
  'form.tooShort': '{field}: escriba al menos {min} caracteres.',

  // The call's compact header (guest, confirmation number, amount owed), named for screen readers.
  'reservation.bar': 'La llamada',
  // What is still owed after this desk's payments (main's balance), in the call's header.
  'reservation.owed': 'Por cobrar',
  'reservation.inProgress': 'En cobro ahora',
  'reservation.owedAfter': 'Por cobrar después',
  // A day typed in the desk's format (ui/DateField), never the browser's date picker.
  'date.pattern': 'dd/mm/aaaa',
  'date.invalid': '{field}: escriba el día como {pattern}, por ejemplo 14/03/2025.',
  // Search: a short reference that is not one.
  'error.invalid_input.shortReference':
    'Referencia corta: escriba sus 8 caracteres como aparecen en el comprobante, por ejemplo 9D21-F5A0 (el guion es opcional).',
  // Start-up: a call made before the desk is ready.
  'error.starting': 'El escritorio todavía se está iniciando. Espere un momento; se abre solo cuando esté listo.',

  // Refusals as codes with params: what main's English said, now said here from the params.
  'error.not_locked.signedIn':
    '{signedIn} tiene la sesión abierta y el escritorio no está bloqueado: esa persona debe cerrar la sesión desde el área de trabajo.',
  'error.forbidden.role': 'Su rol ({role}) no permite hacer esto.',
  'error.timeout.seconds':
    'El sistema de reservaciones no respondió en {seconds} s. Intente de nuevo en un momento; si sigue pasando, avise a TI.',
};
