// Looks for test card numbers in files and texts without the app's own detector: each file's bytes read as Latin-1,
// UTF-8 and UTF-16 (both byte alignments), every character that is not a letter or a digit dropped, every decimal
// digit made ASCII — then each PAN's digits searched for. Letters stay, so digits of unrelated numbers (a hash, an
// id) are never joined into a false find; a 16-digit PAN appearing by chance in random bytes is out of reach.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Any Unicode decimal digit as ASCII (each script's digits are ten consecutive code points, 0 to 9). */
function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (digit) => {
    const codePoint = digit.codePointAt(0) ?? 0;
    let zero = codePoint;
    while (zero > 0 && codePoint - zero < 100 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
    return String((codePoint - zero) % 10);
  });
}

/** Letters and digits only, digits in ASCII: what is left of a card number however it was spelled. */
export const lettersAndDigits = (text: string): string =>
  asciiDigits(text.normalize('NFKC')).replace(/[^\p{L}\p{N}]/gu, '');

/** The readings of a file's bytes that text can hide in. */
export function readings(bytes: Buffer): string[] {
  const shifted = bytes.subarray(1);
  return [
    bytes.toString('latin1'),
    bytes.toString('utf8'),
    bytes.toString('utf16le'),
    Buffer.from(shifted).toString('utf16le'),
  ];
}

/** The PANs found in a text (as letters and digits only). */
export const pansIn = (text: string, pans: readonly string[]): string[] => {
  const plain = lettersAndDigits(text);
  return pans.filter((pan) => plain.includes(pan));
};

/** Every file under a folder (recursively), with its path relative to it. */
export function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return filesUnder(path).map((f) => ({ path: join(name, f.path), bytes: f.bytes }));
    return [{ path: relative(dir, path), bytes: readFileSync(path) }];
  });
}

/** `file: pan` for every PAN found in any reading of any file under the folder. */
export function pansInFolder(dir: string, pans: readonly string[]): string[] {
  return filesUnder(dir).flatMap(({ path, bytes }) =>
    [...new Set(readings(bytes).flatMap((text) => pansIn(text, pans)))].map((pan) => `${path}: ${pan}`),
  );
}
