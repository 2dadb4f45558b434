// Las palabras del escritorio: botones comunes, rechazos de texto libre, navegación, el marco del espacio de trabajo, inicio de sesión, bloqueo por inactividad, actualizaciones, arranque y recuperación de la ventana.
import type { CataloguePart } from '../catalogue';
import type { deskEnUS } from './desk.en-US';

export const deskEsMX: CataloguePart<typeof deskEnUS> = {
  'common.cancel': 'Cancelar',
  'common.continue': 'Continuar',
  'common.retry': 'Intentar de nuevo',
  'common.close': 'Cerrar',
  'common.loading': 'Cargando…',
  'common.requiredField': 'Este campo es obligatorio.',
  'common.optional': '(opcional)',
  'refusal.cardNumber':
    '{field}: esto parece un número de tarjeta. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
  'refusal.securityCode':
    '{field}: esto parece el código de seguridad de una tarjeta. El código de seguridad se escribe solo en el formulario de la tarjeta.',
  'refusal.hiddenCharacters':
    '{field}: tiene caracteres invisibles de control o de dirección del texto. Escríbalo de nuevo sin ellos.',
  'field.note': 'Nota',
  'field.search': 'Búsqueda',
  'field.destination': 'Dónde enviar el enlace',
  'nav.label': 'Secciones del escritorio',
  'nav.workspace': 'Espacio de trabajo',
  'nav.payments': 'Pagos',
  'nav.approvals': 'Aprobaciones',
  'nav.audit': 'Auditoría',
  'nav.report': 'Reporte',
  'nav.accounts': 'Cuentas',
  'nav.import': 'Importar reservaciones',
  'ws.lock': 'Bloquear',
  'ws.training': 'Modo capacitación — sin cargos reales',
  'ws.sandbox': 'Sandbox',
  'ws.signedInAs': 'Sesión de {name} ({role})',
  'role.agent': 'agente',
  'role.supervisor': 'supervisor',
  'role.admin': 'administrador',
  'ws.signOut': 'Cerrar sesión',
  'ws.shortcuts': 'Atajos de teclado',
  'ws.keySearch': 'buscar',
  'ws.keyOpen': 'abrir el primer resultado / continuar',
  'ws.keyNext': 'siguiente campo',
  'ws.empty':
    'Busque la reservación por la que llama el huésped: escriba el número de confirmación, nombre, teléfono, correo o la referencia corta del pago.',
  'ws.adminNoPayments': 'Los administradores no cobran; inicie sesión como agente o supervisor.',
  'ws.notFound': 'Ya no se encontró esta reservación. Busque de nuevo.',
  'ws.languageLocked': 'TI fijó el idioma de este equipo.',
  'idle.warning':
    'El escritorio se bloqueará a las {time} por inactividad. Presione cualquier tecla para seguir trabajando.',
  'app.noBridge': 'Esta página se abrió fuera de la aplicación: falta el puente de pagos.',
  'signin.title': 'Iniciar sesión',
  'signin.lockedTitle': 'El equipo se bloqueó',
  'signin.lockedHelp':
    'Se bloqueó solo tras un tiempo sin actividad, y se borró lo escrito en pantalla (datos de tarjeta, notas y montos). Inicie sesión de nuevo para continuar.',
  'signin.id': 'ID de operador',
  'signin.password': 'Contraseña',
  'signin.submit': 'Iniciar sesión',
  'signin.handOver': 'Iniciar sesión con otro usuario',
  'signin.handedOver': 'Se cerró la sesión bloqueada. El siguiente operador puede iniciar sesión.',
  'signin.endElsewhere': 'Terminar la sesión en el escritorio {deskId} e iniciar sesión aquí',
  'firstAdmin.title': 'Crear el primer administrador',
  'firstAdmin.help':
    'Aún no existe ningún operador. El administrador crea después las cuentas de agentes y supervisores.',
  'firstAdmin.name': 'Nombre',
  'firstAdmin.password': 'Contraseña (12 caracteres o más, letras y dígitos)',
  'firstAdmin.submit': 'Crear e iniciar sesión',
  'live.reconnecting':
    'Reconectando con el centro… Lo que ve puede no estar al día (una solicitud pendiente pudo haberse decidido); se actualiza solo cuando vuelva la conexión.',
  'update.ready':
    'La versión {version} de la aplicación está lista. Reinicie para instalarla; tarda alrededor de un minuto.',
  'update.readyAfterCall':
    'La versión {version} de la aplicación está lista. Se instalará cuando reinicie, una vez que el pago en curso tenga su resultado.',
  'update.restart': 'Reiniciar ahora',
  'update.restarting': 'Reiniciando…',
  'update.blocked': 'Aún hay un pago en curso: reinicie al terminar la llamada.',
  'update.failed': 'La aplicación no pudo reiniciarse para instalar la actualización: {reason}',
  'refusal.cardNumber.cleared':
    '{field}: esto parecía un número de tarjeta y se borró. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
  'refusal.securityCode.cleared':
    '{field}: esto parecía el código de seguridad de una tarjeta y se borró. El código de seguridad se escribe solo en el formulario de la tarjeta.',
  'window.reason.crashed': 'la página se cerró por un error',
  'window.reason.killed': 'el sistema cerró la página',
  'window.reason.oom': 'la página se quedó sin memoria',
  'window.reason.abnormal-exit': 'la página terminó con un error',
  'window.reason.launch-failed': 'la página no pudo iniciar',
  'window.reason.integrity-failure': 'falló la verificación de integridad de código de Windows',
  'window.reason.memory-eviction': 'el sistema cerró la página para liberar memoria',
  'window.reason.unresponsive': 'la página dejó de responder y se cerró',
  'window.reason.unknown': 'motivo desconocido',
  'startup.starting': 'Iniciando el escritorio…',
  'startup.connectingCenter': 'Conectando con el centro…',
  'startup.checking': 'Revisando operaciones que quedaron sin respuesta…',
  'startup.recovering': 'Completando {current} de {total} operaciones sin respuesta…',
  'startup.opening': 'Abriendo el escritorio…',
  'startup.progressLabel': 'Operaciones completadas',
  'startup.doNotClose': 'No cierre la aplicación mientras se completan.',
  'startup.doNotCloseWhy':
    'Son cobros o reembolsos que quedaron sin respuesta cuando se cerró la aplicación. Ahora se están completando con el servicio de pagos, cada uno una sola vez: nada se cobra dos veces.',
  'startup.wait': 'Esto puede tardar un momento. El escritorio se abre solo cuando esté listo.',
};
