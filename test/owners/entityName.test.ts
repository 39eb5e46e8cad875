import { expect } from 'chai';
import { entityIdOf, ownerKeys, ownerParts, sameOwner } from '../../src/owners/entityName.ts';

// The rules of docs/owners.md, each by an example of the page (the labelled pairs are bench/owners.ts's to measure).

describe('owner entities: names that are one owner', () => {
  it('folds M/S, legal forms, punctuation, spacing, initials and & into one key', () => {
    const forms = [
      'M/S ABC FOODS PVT. LTD.',
      'ABC FOODS PRIVATE LIMITED',
      'A.B.C. Foods Pvt Ltd',
      'A B C  FOODS (P) LTD',
      'ABCFOODS LIMITED',
    ];
    for (const f of forms) expect(ownerKeys(f), f).to.deep.equal(ownerKeys(forms[0]));
    expect(sameOwner('GUPTA & CO.', 'GUPTA AND COMPANY')).to.equal(true);
    expect(sameOwner('M/S  S.K. JEWELLERS (REGD.)', 'S K JEWELLERS')).to.equal(true);
  });

  it('keeps a company, an LLP and a firm of the same words apart, and a place in brackets', () => {
    expect(sameOwner('MEHTA JEWELLERS LLP', 'MEHTA JEWELLERS L.L.P.')).to.equal(true);
    expect(sameOwner('MEHTA JEWELLERS LLP', 'MEHTA JEWELLERS PRIVATE LIMITED')).to.equal(false);
    expect(sameOwner('KAMDHENU DAIRY', 'KAMDHENU DAIRY PRIVATE LIMITED')).to.equal(false);
    expect(sameOwner('SHARMA TRADERS (DELHI)', 'SHARMA TRADERS (JAIPUR)')).to.equal(false);
    expect(sameOwner('GHARDA CHEMICALS LIMITED (GCL)', 'GHARDA CHEMICALS LIMITED')).to.equal(true);
  });

  it('reads trading-as forms as a person and a trade name, and lets the persons decide', () => {
    expect(ownerParts('RAJESH KUMAR TRADING AS SHREE FOODS').map((p) => p.role)).to.deep.equal(['person', 'trade']);
    expect(ownerParts('GUPTA SWEETS (PROP. RAMESH KUMAR GUPTA)').map((p) => p.role)).to.deep.equal(['trade', 'person']);
    expect(sameOwner('RAJESH KUMAR TRADING AS SHREE FOODS', 'SHREE FOODS')).to.equal(true);
    expect(sameOwner('RAJESH KUMAR TRADING AS SHREE FOODS', 'RAJESH KUMAR T/A SHREE FOODS')).to.equal(true);
    expect(sameOwner('RAJESH KUMAR TRADING AS SHREE FOODS', 'MAHESH KUMAR TRADING AS SHREE FOODS')).to.equal(false);
    expect(sameOwner('HERO MOTOCORP LTD. (FORMERLY HERO HONDA MOTORS LTD.)', 'HERO HONDA MOTORS LIMITED')).to.equal(true);
  });

  it("drops a person's title but keeps its gender and the parent, and keeps SHREE in a business's name", () => {
    expect(sameOwner('SHRI RAMESH CHANDRA AGARWAL', 'RAMESH CHANDRA AGARWAL')).to.equal(true);
    expect(sameOwner('MR. KIRAN SHAH', 'MRS. KIRAN SHAH')).to.equal(false);
    expect(sameOwner('RAMESH S/O SURESH', 'RAMESH S/O MAHESH')).to.equal(false);
    expect(sameOwner('GURPREET SINGH S/O LATE SH. HARBANS SINGH', 'GURPREET SINGH SON OF LATE HARBANS SINGH')).to.equal(true);
    expect(sameOwner('SHREE KRISHNA DAIRY', 'KRISHNA DAIRY')).to.equal(false);
    expect(sameOwner('SHREE GANESH TRADERS', 'SHRI GANESH TRADERS')).to.equal(true);
  });

  it('reads a name in Devanagari against its Latin spelling by its consonants, not two Latin near names', () => {
    expect(sameOwner('डाबर इंडिया लिमिटेड', 'DABUR INDIA LTD.')).to.equal(true);
    expect(sameOwner('मेसर्स अग्रवाल स्वीट्स', 'M/S AGARWAL SWEETS')).to.equal(true);
    expect(sameOwner('ABC FOODS', 'ABC FEEDS')).to.equal(false);
  });

  it('gives one key one id, whatever the name it came from', () => {
    const [a] = ownerKeys('ABC FOODS PVT LTD');
    expect(entityIdOf(a)).to.equal(entityIdOf(ownerKeys('M/s. A.B.C. Foods Private Limited')[0]));
    expect(entityIdOf(a)).to.match(/^own_[0-9a-f]{16}$/);
    expect(entityIdOf(a)).not.to.equal(entityIdOf(ownerKeys('ABC FOODS LLP')[0]));
  });
});
