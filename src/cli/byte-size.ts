/** A number of bytes as a person reads it in a listing: "812 B", "4.2 KiB", "31.0 MiB", "1.3 GiB". */
const UNITS = ["KiB", "MiB", "GiB", "TiB"];

export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}
