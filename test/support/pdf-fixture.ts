/**
 * PDFs written out for tests, byte by byte (no PDF library on the writing side, so the reading
 * side is tested against files it did not make): one Helvetica text line a page, and the same
 * with an encryption dictionary whose password is not empty (an encrypted PDF).
 */

type Options = { encrypted?: boolean };

/** A PDF of one text line a page (ASCII text without parentheses or backslashes). */
export function simplePdf(pages: string[], options: Options = {}): Uint8Array {
  const objects: string[] = ["<< /Type /Catalog /Pages 2 0 R >>"];
  const kids = pages.map((_, i) => `${3 + i * 2} 0 R`).join(" ");
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  const font = 3 + pages.length * 2;
  pages.forEach((text, i) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents ${4 + i * 2} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`,
    );
    const stream = `BT /F1 12 Tf 20 100 Td (${text}) Tj ET`;
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  const encrypt = options.encrypted ? objects.length + 1 : 0;
  if (options.encrypted) {
    // RC4 40-bit (revision 2) with an owner and user entry that no empty password opens.
    const hex = (byte: string) => `<${byte.repeat(32)}>`;
    objects.push(`<< /Filter /Standard /V 1 /R 2 /O ${hex("4f")} /U ${hex("55")} /P -44 >>`);
  }
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  const id = "<0123456789abcdef0123456789abcdef>";
  const extra = encrypt ? ` /Encrypt ${encrypt} 0 R /ID [${id} ${id}]` : "";
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${extra} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
