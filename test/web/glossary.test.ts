import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { CATEGORIES } from '../../src/accounts/access.ts';
import { ERROR_CODES } from '../../src/errors.ts';
import { CATEGORY_WORDS, ERRORS_HI, TERMS } from '../../web/src/lib/glossary.ts';

// One glossary for every string a user reads (web/src/lib/glossary.ts): each API error code in Hindi, and no
// page naming a term by a variant the glossary avoids ("शब्द मार्क" beside "शब्द चिह्न").

const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.gen.ts') ? [p] : [];
  });

describe('web app: the glossary', () => {
  it('says every error code of the API in Hindi, and nothing the API does not answer', () => {
    expect(Object.keys(ERRORS_HI).sort()).to.deep.equal(Object.keys(ERROR_CODES).sort());
    for (const [code, text] of Object.entries(ERRORS_HI)) expect(text, code).to.not.match(/[A-Za-z]{4,}/);
  });

  it('names every plan category in both languages', () => {
    expect(Object.keys(CATEGORY_WORDS).sort()).to.deep.equal([...CATEGORIES].sort());
  });

  it('is the only way a page names its terms: no variant it avoids appears anywhere in web/src', () => {
    const found: string[] = [];
    for (const f of files('web/src')) {
      if (f.endsWith(path.join('lib', 'glossary.ts'))) continue;
      const text = fs.readFileSync(f, 'utf8');
      for (const [term, t] of Object.entries(TERMS))
        for (const variant of t.avoid) if (text.includes(variant)) found.push(`${f}: "${variant}" (say "${t.hi}" for ${term})`);
    }
    expect(found).to.deep.equal([]);
  });
});
