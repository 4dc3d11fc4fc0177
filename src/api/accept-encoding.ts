/** Reading `Accept-Encoding` (RFC 9110 §12.5.3), for answers the service stores in gzipped form as well (map tiles). */

/** Whether the header admits gzip: `gzip` named without `q=0`, or else `*` without `q=0`. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined) return false;
  let star = false;
  for (const part of value.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((p) => /^\s*q\s*=\s*0(\.0{0,3})?\s*$/.test(p));
    if (coding.trim() === 'gzip') return !refused;
    if (coding.trim() === '*') star = !refused;
  }
  return star;
}
