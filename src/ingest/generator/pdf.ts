// A minimal but valid PDF 1.4 writer: text pages in Helvetica, an exact cross-reference table, no
// timestamps (so output is reproducible). Enough for the document store to serve real files.

function escapeText(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
}

/** One page per entry of `pages`; each page is a list of [fontSize, text] lines from the top. */
export function pdf(title: string, pages: [number, string][][]): Buffer {
  const objects: string[] = [];
  const pageCount = pages.length;
  const fontObj = 3 + pageCount * 2;
  const infoObj = fontObj + 1;
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  const kids = pages.map((_, p) => `${3 + p * 2} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pageCount} >>`);
  pages.forEach((lines, p) => {
    let y = 780;
    let body = 'BT\n';
    for (const [size, text] of lines) {
      body += `/F1 ${size} Tf\n1 0 0 1 60 ${y} Tm\n(${escapeText(text)}) Tj\n`;
      y -= Math.round(size * 1.6);
    }
    body += 'ET\n';
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${fontObj} 0 R >> >> /Contents ${4 + p * 2} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}endstream`);
  });
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  objects.push(`<< /Title (${escapeText(title)}) /Producer (Nishaan synthetic registry generator) >>`);

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, k) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${k + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${infoObj} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
