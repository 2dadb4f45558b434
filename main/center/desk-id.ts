/** The desk's stable id: made at first start in the data folder, never changed; every record names it. */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../errors';
import { writeFileAtomic } from '../storage';

export const DESK_FILE = 'desk.json';

const DeskFile = z.strictObject({
  version: z.literal(1),
  deskId: z.uuid(),
  createdAt: z.iso.datetime(),
});
export type DeskIdentity = z.output<typeof DeskFile>;

/** The desk's identity file is damaged (`file`): what IT must do is worded by the catalogue (main/cli/messages.ts). */
export class DeskIdentityError extends UserError<'desk_id_damaged'> {
  override readonly name = 'DeskIdentityError';

  constructor(file: string) {
    super('desk_id_damaged', { params: { file } });
  }
}

/**
 * The desk's identity from <dataDir>/desk.json, made on the first start. A damaged file is refused, never replaced: a
 * new id would make this desk another one in the center (its records, its audit chain).
 */
export async function deskIdentity(dataDir: string, now: () => Date = () => new Date()): Promise<DeskIdentity> {
  const file = join(dataDir, DESK_FILE);
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text === undefined) {
    const identity: DeskIdentity = { version: 1, deskId: randomUUID(), createdAt: now().toISOString() };
    await writeFileAtomic(file, `${JSON.stringify(identity, null, 2)}\n`, { mode: 0o644 });
    return identity;
  }
  let parsed: ReturnType<typeof DeskFile.safeParse>;
  try {
    parsed = DeskFile.safeParse(JSON.parse(text));
  } catch {
    parsed = DeskFile.safeParse(undefined);
  }
  if (!parsed.success) {
    throw new DeskIdentityError(file);
  }
  return parsed.data;
}
