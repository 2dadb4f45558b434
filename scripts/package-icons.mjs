// `npm run package:icons`: draws the app's placeholder icon (a card on a blue square) and writes it as
// build-resources/icon.png (1024 px, Linux), icon.ico (16–256 px, Windows) and icon.icns (16–1024 px, macOS).
// Plain Node, no image library: PNG is encoded here, and ICO and ICNS simply hold PNG images.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

const OUT = path.join(import.meta.dirname, '..', 'build-resources');

/** Colours as [r, g, b]. */
const NAVY = [30, 58, 138];
const WHITE = [248, 250, 252];
const SLATE = [51, 65, 85];
const GOLD = [245, 158, 11];

/** True when (x, y), in 0..1 units, is inside the rounded rectangle. */
function inRoundedRect(x, y, [left, top, right, bottom], radius) {
  if (x < left || x > right || y < top || y > bottom) return false;
  const cx = Math.min(Math.max(x, left + radius), right - radius);
  const cy = Math.min(Math.max(y, top + radius), bottom - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** The colour and opacity at a point of the icon (the last shape that covers it wins). */
function sample(x, y) {
  if (!inRoundedRect(x, y, [0.06, 0.06, 0.94, 0.94], 0.18)) return null;
  if (inRoundedRect(x, y, [0.27, 0.52, 0.37, 0.61], 0.015)) return GOLD;
  if (y >= 0.38 && y <= 0.46 && inRoundedRect(x, y, [0.2, 0.3, 0.8, 0.7], 0.05)) return SLATE;
  if (inRoundedRect(x, y, [0.2, 0.3, 0.8, 0.7], 0.05)) return WHITE;
  return NAVY;
}

/** RGBA pixels of the icon at `size`, 4×4 samples per pixel for smooth edges. */
function draw(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const grid = 4;
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < grid; sy++) {
        for (let sx = 0; sx < grid; sx++) {
          const colour = sample((column + (sx + 0.5) / grid) / size, (row + (sy + 0.5) / grid) / size);
          if (colour === null) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          covered++;
        }
      }
      const at = (row * size + column) * 4;
      if (covered > 0) {
        pixels[at] = Math.round(r / covered);
        pixels[at + 1] = Math.round(g / covered);
        pixels[at + 2] = Math.round(b / covered);
        pixels[at + 3] = Math.round((255 * covered) / (grid * grid));
      }
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG file of the icon at `size` (8-bit RGBA, no filtering). */
export function png(size) {
  const pixels = draw(size);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let row = 0; row < size; row++)
    pixels.copy(rows, row * (size * 4 + 1) + 1, row * size * 4, (row + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ICO file holding one PNG per size (Windows Vista and later read PNG entries). */
function ico(sizes) {
  const images = sizes.map((size) => png(size));
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(sizes.length, 4);
  const entries = [];
  let offset = 6 + 16 * sizes.length;
  sizes.forEach((size, index) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(images[index].length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += images[index].length;
    entries.push(entry);
  });
  return Buffer.concat([header, ...entries, ...images]);
}

/** An ICNS file holding PNG images under their OSType codes. */
function icns(types) {
  const blocks = types.map(([type, size]) => {
    const image = png(size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(image.length + 8, 4);
    return Buffer.concat([head, image]);
  });
  const body = Buffer.concat(blocks);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

writeFileSync(path.join(OUT, 'icon.png'), png(1024));
writeFileSync(path.join(OUT, 'icon.ico'), ico([16, 24, 32, 48, 64, 128, 256]));
writeFileSync(
  path.join(OUT, 'icon.icns'),
  icns([
    ['icp4', 16],
    ['icp5', 32],
    ['icp6', 64],
    ['ic07', 128],
    ['ic08', 256],
    ['ic09', 512],
    ['ic10', 1024],
  ]),
);
console.log('wrote build-resources/icon.png, icon.ico and icon.icns');
