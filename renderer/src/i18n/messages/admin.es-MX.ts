// Los formularios del administrador y del supervisor: cuentas, la importación de reservaciones y el reporte de fin de día.
import type { CataloguePart } from '../catalogue';
import type { adminEnUS } from './admin.en-US';

export const adminEsMX: CataloguePart<typeof adminEnUS> = {
  'report.title': 'Reporte de cierre del día',
  'report.date': 'Día',
  'report.timeZone': 'Contado en la zona horaria {zone}.',
  'report.agents': 'Por agente',
  'report.desks': 'Por escritorio',
  'report.col.desk': 'Escritorio',
  'report.totals': 'Totales por moneda',
  'report.plans': 'MSI por plan',
  'report.hours': 'Volumen por hora',
  'report.col.agent': 'Agente',
  'report.col.currency': 'Moneda',
  'report.col.payments': 'Pagos',
  'report.col.paymentsTotal': 'Cobrado',
  'report.col.refunds': 'Reembolsos',
  'report.col.refundsTotal': 'Reembolsado',
  'report.col.net': 'Neto',
  'report.col.plan': 'Modalidad',
  'report.col.total': 'Importe',
  'report.col.hour': 'Hora',
  'report.single': 'Un solo pago',
  'report.months': '{count} meses',
  'report.none': 'No hay pagos en este día.',
  'report.chartLabel':
    'Pagos por hora en {currency} (en total: {count}, por {total}); la hora con más pagos empieza a las {hour}.',
  'report.export': 'Exportar CSV',
  'report.print': 'Imprimir',
  'accounts.title': 'Cuentas de operadores',
  'accounts.create': 'Nueva cuenta',
  'accounts.id': 'ID del operador',
  'accounts.name': 'Nombre',
  'accounts.role': 'Rol',
  'accounts.password': 'Contraseña (12 caracteres o más, letras y dígitos)',
  'accounts.createSubmit': 'Crear cuenta',
  'accounts.created': 'Cuenta {id} creada.',
  'accounts.updated': 'Cuenta {id} actualizada.',
  'accounts.status': 'Estado',
  'accounts.active': 'Activa',
  'accounts.inactive': 'Desactivada',
  'accounts.disable': 'Desactivar',
  'accounts.enable': 'Activar',
  'accounts.roleOf': 'Rol de {id}',
  'accounts.actions': 'Acciones',
  'accounts.reset': 'Restablecer contraseña',
  'accounts.newPassword': 'Nueva contraseña para {id}',
  'accounts.resetSubmit': 'Guardar contraseña',
  'accounts.resetDone': 'Se cambió la contraseña de {id}.',
  'import.title': 'Importar reservaciones',
  'import.help':
    'Elija la exportación CSV de las reservaciones del hotel. Se importan todas las filas, o ninguna si alguna tiene un problema.',
  'import.columns': 'Columnas: {columns}',
  'import.file': 'Archivo CSV',
  'import.submit': 'Importar',
  'import.noFile': 'Primero elija un archivo.',
  'import.done': 'Importado: {created} nuevas, {updated} actualizadas.',
  'import.failed': 'No se importó nada. Corrija estas filas e intente de nuevo:',
  'import.line': 'Línea {line}',
  'import.more': '…y {count} problemas más.',
  'import.issue.file_too_large':
    'El archivo pesa más de {maxMb} MB: divídalo en archivos más pequeños e importe cada uno.',
  'import.issue.not_utf8':
    'El archivo no es texto UTF-8. En su hoja de cálculo, guárdelo como "CSV UTF-8 (delimitado por comas)" e impórtelo de nuevo.',
  'import.issue.quote_not_closed':
    'Unas comillas (") abiertas en esta línea nunca se cierran: revise las comillas de las celdas.',
  'import.issue.quote_misplaced':
    'Unas comillas (") están fuera de lugar: una celda con comillas debe empezar y terminar con ellas, y una comilla dentro de ella se escribe dos veces ("").',
  'import.issue.not_csv': 'Esta línea no es CSV válido: revise las comillas y los separadores.',
  'import.issue.empty_file':
    'El archivo está vacío. Necesita una fila de encabezado ({known}) y una fila por reservación.',
  'import.issue.card_number_in_text':
    'Esto parece un número de tarjeta. Los números de tarjeta se escriben solo en el formulario de la tarjeta.',
  'import.issue.security_code_in_text':
    'Esto parece el código de seguridad de una tarjeta. El código de seguridad se escribe solo en el formulario de la tarjeta.',
  'import.issue.unnamed_column': 'Una columna no tiene nombre en la fila de encabezado. Las columnas son: {known}.',
  'import.issue.unknown_column': '"{column}" no es una columna que la aplicación conozca. Las columnas son: {known}.',
  'import.issue.duplicate_column': 'La columna "{column}" aparece dos veces en la fila de encabezado.',
  'import.issue.missing_column': 'La fila de encabezado no tiene la columna "{column}", que toda reservación necesita.',
  'import.issue.no_reservations': 'El archivo tiene fila de encabezado pero ninguna reservación.',
  'import.issue.too_many_rows':
    'El archivo tiene {rows} reservaciones; se pueden importar como máximo {max} a la vez. Divídalo en archivos más pequeños.',
  'import.issue.cell_count':
    'Esta línea tiene {cells} celdas pero el encabezado tiene {columns} columnas. Revise si falta o sobra un separador; un nombre con coma debe ir entre comillas.',
  'import.issue.balance_format':
    'Escriba el saldo como un número con punto antes de los centavos, por ejemplo 12450.00 (sin letras ni coma para los centavos).',
  'import.issue.balance_negative': 'El saldo no puede ser negativo.',
  'import.issue.balance_too_large': 'El saldo puede ser como máximo 999,999.99.',
  'import.issue.balance_cents': 'El saldo puede tener como máximo dos decimales (centavos).',
  'import.issue.invalid_phone':
    'El teléfono debe ser un número real con su código de país, por ejemplo +52 998 123 4567 o +1 201 555 0123.',
  'import.issue.empty_cell': 'La celda {column} está vacía; toda reservación la necesita.',
  'import.issue.invalid_value': 'Este valor no es válido en la columna {column}.',
  'import.issue.invalid_value.confirmation_number':
    'Escriba el número de confirmación solo con letras, dígitos y guiones, por ejemplo CUN-7F3K2A.',
  'import.issue.invalid_value.guest_name':
    'Escriba el nombre del huésped como está en la reservación (máximo 200 caracteres).',
  'import.issue.invalid_value.check_in': 'Escriba la fecha de llegada como AAAA-MM-DD, por ejemplo 2026-03-14.',
  'import.issue.invalid_value.check_out': 'Escriba la fecha de salida como AAAA-MM-DD, por ejemplo 2026-03-18.',
  'import.issue.invalid_value.hotel_name': 'Escriba el nombre del hotel (máximo 100 caracteres).',
  'import.issue.invalid_value.balance_due':
    'Escriba el saldo como un número con punto antes de los centavos, por ejemplo 12450.00.',
  'import.issue.invalid_value.currency': 'La moneda debe ser mxn o usd.',
  'import.issue.invalid_value.guest_phone':
    'El teléfono debe ser un número real con su código de país, por ejemplo +52 998 123 4567.',
  'import.issue.invalid_value.guest_email':
    'Esto no es un correo electrónico: revíselo, por ejemplo ana.lopez@example.com.',
  'import.issue.invalid_value.guest_language': 'Escriba el idioma del huésped como es o en, o déjelo vacío.',
  'import.issue.check_out_before_check_in': 'La fecha de salida no puede ser anterior a la de llegada.',
  'import.issue.duplicate_confirmation':
    'Este número de confirmación ya está en la línea {firstLine}: cada reservación puede aparecer solo una vez en un archivo.',
  'accounts.rule.id':
    'ID del operador: use de 2 a 32 caracteres: letras sin acentos, números, punto (.), guion (-) o guion bajo (_), sin espacios; por ejemplo, ana.lopez.',
  'accounts.rule.idReserved':
    'ID del operador: “system” y “anonymous” están reservados para los registros propios de la aplicación; elija otro ID.',
  'accounts.rule.idTaken':
    'ID del operador: ya existe una cuenta con el ID {id} (sin importar mayúsculas); elija otro ID.',
  'accounts.rule.name': 'Nombre: escriba el nombre de la persona, de 1 a 80 caracteres.',
  'accounts.rule.password': 'Contraseña: al menos 12 caracteres, con letras y números.',
  'accounts.confirmRole': '¿Cambiar el rol de {name} ({id}) de {from} a {to}?',
  'accounts.confirmRoleSubmit': 'Cambiar a {to}',
  'report.chartPayment': '1 pago',
  'report.chartPayments': '{count} pagos',
  'report.axis': 'Eje: monto cobrado en la hora, en {currency}',
};
