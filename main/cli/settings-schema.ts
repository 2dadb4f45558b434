/** `npm run settings:schema`: writes docs/managed-settings.schema.json from the zod schema (run after changing a setting). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { MANAGED_SCHEMA_PATH, managedSettingsJsonSchemaText } from '../settings/managed-schema';

const file = path.join(import.meta.dirname, '../..', MANAGED_SCHEMA_PATH);
writeFileSync(file, managedSettingsJsonSchemaText());
console.log(`wrote ${MANAGED_SCHEMA_PATH}`);
