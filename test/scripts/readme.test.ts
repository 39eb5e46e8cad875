import fs from 'node:fs';
import { expect } from 'chai';

const ROOT = new URL('../..', import.meta.url).pathname;

/** The README's Layout section. */
function layout(): string {
  const readme = fs.readFileSync(`${ROOT}README.md`, 'utf8');
  const from = readme.indexOf('## Layout\n');
  return readme.slice(from, readme.indexOf('\n## ', from + 1));
}

/** Folder names (`name/`) the Layout section names in backticks, each at the start of a list item. */
function listed(text: string, indent: string): string[] {
  return [...text.matchAll(new RegExp(`^${indent}- \`([\\w./-]+)/\``, 'gm'))].map((m) => m[1]);
}

const dirs = (p: string) =>
  fs
    .readdirSync(`${ROOT}${p}`, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && !['node_modules', 'var'].includes(d.name))
    .map((d) => d.name);

// The Layout section had folders twice (webhooks, storage, migrations, scripts) and missed others (db,
// threads): it must name each folder of the tree once, and nothing that is not there.
describe("README's Layout", () => {
  it('names each top-level folder once, and no folder the tree lacks', () => {
    const top = listed(layout(), '');
    expect(top.length, top.join(', ')).to.equal(new Set(top).size);
    expect([...top].sort()).to.deep.equal(dirs('').sort());
  });

  it("names each folder of src/ once, and each file at src/'s top", () => {
    const text = layout();
    const inner = listed(text, '  ');
    expect(inner.length, inner.join(', ')).to.equal(new Set(inner).size);
    expect([...inner].sort()).to.deep.equal(dirs('src').sort());
    for (const f of fs.readdirSync(`${ROOT}src`).filter((n) => n.endsWith('.ts'))) expect(text, f).to.contain(`\`${f}\``);
  });
});
