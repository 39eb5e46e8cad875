import { romanise } from '../search/normalise.ts';

// Marks that mean the same in Hindi and English (SURAJ and SUN, SHER and LION) can be confused by
// idea even when nothing is spelled or said alike: the doctrine of foreign equivalents, applied by
// Indian examiners to the Hindi and English words brands are made of. Each line is one meaning: its
// English word first, then its Hindi words as they are romanised on the register (spelling variants
// fold through the search's romanisation, so HAATHI and HATHI are one entry).
//
// Kept to words that mean a thing on a label (animals, heavenly bodies, weather, metals and gems,
// colours, flowers, elements, titles, devotional words, numbers, a few trade words). Words that are
// mainly personal names (RAVI, VIJAY, PREM, AKASH, SAGAR, JYOTI) are left out: a mark named after a
// person is not read as the thing the name means; so are deities' proper names (GANESH, KRISHNA).
// Each romanised form belongs to one meaning only once folded (romanise, src/search/normalise.ts):
// a form that folds into a frequent unrelated word is left out, as the notes below say.
//
// Sources: the words are headwords, in these romanisations, of J. T. Platts, "A Dictionary of Urdu,
// Classical Hindi, and English" (1884; Digital Dictionaries of South Asia, University of Chicago), of
// R. S. McGregor, "The Oxford Hindi-English Dictionary" (Oxford University Press, 1993), and of the
// Shabdkosh Hindi-English dictionary (shabdkosh.com), where each can be checked. The few words of other
// Indian languages are kept to those common on brands: Tamil SURIYA (sun) and THANGAM (gold), as in
// J. P. Fabricius, "Tamil and English Dictionary"; Bengali SONAR (golden, SONAR BANGLA), as in the
// Samsad Bengali-English Dictionary; Punjabi PIND (village, PIND BALLUCHI).
const MEANINGS: string[][] = [
  ['SUN', 'SURAJ', 'SURYA', 'DINKAR', 'SURIYA'],
  ['MOON', 'CHAND', 'CHANDA', 'CHANDRAMA', 'CHANDRA'],
  ['STAR', 'TARA', 'SITARA', 'NAKSHATRA', 'TARE'],
  ['SUNRISE', 'SURYODAY', 'SURYODAYA'],
  ['MORNING', 'SUBAH', 'SAVERA', 'PRABHAT'],
  ['SKY', 'GAGAN', 'ASMAN', 'AASMAN'],
  ['EARTH', 'DHARTI', 'PRITHVI', 'BHUMI'],
  ['FIRE', 'AGNI', 'AAG'],
  ['WATER', 'JAL', 'PANI'],
  ['OCEAN', 'SAMUDRA', 'SAMUNDAR'],
  ['RIVER', 'NADI'],
  ['MOUNTAIN', 'PARVAT', 'PAHAD'],
  ['LIGHT', 'ROSHNI', 'UJALA'],
  ['LION', 'SHER', 'SHERA', 'SIMHA'],
  ['TIGER', 'BAGH', 'BAAGH'],
  ['ELEPHANT', 'HATHI', 'GAJ', 'GAJA', 'GAJRAJ'],
  ['HORSE', 'GHODA', 'GHORA', 'ASHVA', 'ASHWA'],
  ['COW', 'GAI', 'GAU'],
  ['DEER', 'HIRAN'],
  ['SNAKE', 'NAAG', 'SAANP'],
  ['PEACOCK', 'MOR', 'MAYUR'],
  ['SWAN', 'HANS', 'HANSA', 'HAMSA'],
  ['HAWK', 'BAAZ', 'BAZ'],
  ['PARROT', 'TOTA'],
  ['BIRD', 'PANCHHI', 'PAKSHI', 'CHIDIYA'],
  ['LOTUS', 'KAMAL', 'PADMA'],
  ['FLOWER', 'PHOOL', 'PUSHP', 'PUSHPA'],
  ['GOLD', 'SONA', 'SWARNA', 'SWARN', 'SUVARNA', 'KANCHAN', 'THANGAM'],
  ['GOLDEN', 'SUNEHRA', 'SUNEHARA', 'SONAR'],
  ['SILVER', 'CHANDI', 'RAJAT'],
  ['DIAMOND', 'HEERA', 'HIRA'],
  ['PEARL', 'MOTI', 'MUKTA'],
  ['EMERALD', 'PANNA'],
  ['RUBY', 'MANIK', 'MANIKYA'],
  ['SAFFRON', 'KESAR', 'KESARIYA', 'BHAGWA'],
  ['SANDALWOOD', 'CHANDAN'],
  ['HONEY', 'MADHU', 'SHAHAD'],
  ['MILK', 'DOODH', 'DUDH'],
  ['SALT', 'NAMAK'],
  ['SWEET', 'MEETHA', 'MITHA', 'MADHUR'],
  ['KING', 'RAJA', 'SAMRAT'],
  ['QUEEN', 'RANI', 'MAHARANI'],
  ['ROYAL', 'SHAHI'],
  ['BRAVE', 'VEER', 'BAHADUR'],
  ['FRIEND', 'MITRA', 'DOST', 'SAATHI'],
  ['CROWN', 'MUKUT', 'TAJ'],
  ['WHEEL', 'CHAKRA'],
  ['ARROW', 'TEER', 'BAAN'],
  ['BELL', 'GHANTI'],
  ['KEY', 'CHABI'],
  ['TEMPLE', 'MANDIR'],
  ['MOTHER', 'MAA', 'MATA'],
  ['LIFE', 'JEEVAN'],
  ['LOVE', 'PYAR', 'PYAAR', 'ISHQ'],
  ['HEART', 'DIL'],
  ['NEW', 'NAYA', 'NUTAN'],
  ['BEAUTIFUL', 'SUNDAR'],
  ['INDIA', 'BHARAT', 'HINDUSTAN'],
  // Colours. Left out: KALA (black), which is also कला, art (KALA MANDIR, KALA NIKETAN), and KALI, the
  // goddess and a bud; BHURA (brown), which folds to BURA (bad); NEELAM (sapphire), mainly a name. NEELA
  // folds to NILA, which is also the Tamil for moon: kept as blue, the Hindi word the register holds.
  // LAL is also a part of men's names (MOHAN LAL): kept, as red is what LAL says alone on a label.
  ['RED', 'LAL'],
  ['GREEN', 'HARA', 'HARIT'],
  ['BLUE', 'NEELA'],
  ['YELLOW', 'PEELA'],
  ['WHITE', 'SAFED', 'SAFAID', 'SUFAID'],
  ['PINK', 'GULABI'],
  ['ORANGE', 'NARANGI', 'SANTRA'],
  ['COLOUR', 'RANG'],
  // Metals and gems. Left out: KANSA (bronze), the name of Krishna's uncle; RATNA and RATAN (gem),
  // mainly names. PUKHRAJ (topaz) is also a name, as HEERA, MOTI and PANNA are, and kept as they are.
  ['COPPER', 'TAMBA', 'TAMRA'],
  ['IRON', 'LOHA'],
  ['STEEL', 'FAULAD', 'FOLAD'],
  ['BRASS', 'PEETAL'],
  ['CORAL', 'MOONGA'],
  ['TOPAZ', 'PUKHRAJ'],
  // Sky and weather. Left out: MEGH (cloud), which folds to MEG; RAAT (night), which folds to RAT; the
  // names USHA, ARUN (dawn), SHASHI, INDU (moon), PAWAN (wind).
  ['MOONLIGHT', 'CHANDNI'],
  ['CLOUD', 'BADAL'],
  ['RAIN', 'BARISH', 'BARSAAT'],
  ['AIR', 'HAWA', 'VAYU'],
  ['LIGHTNING', 'BIJLI'],
  ['RAINBOW', 'INDRADHANUSH'],
  ['STORM', 'TOOFAN', 'AANDHI'],
  ['WAVE', 'LEHAR', 'LAHAR', 'TARANG'],
  ['WORLD', 'DUNIYA', 'JAGAT', 'SANSAR', 'VISHWA'],
  ['UNIVERSE', 'BRAHMAND'],
  ['SPACE', 'ANTARIKSH'],
  ['SOIL', 'MITTI'],
  // Animals. Left out: NANDI (Shiva's bull, a proper name) and SAAND (bull), which folds to SAND; BHALU
  // (bear), which folds to BALU, a South Indian name; BHAINS (buffalo), which folds to BAINS, a surname;
  // BHED (sheep), which folds to BED; GADHA (donkey), which folds to GADA (mace); MEEN (fish), which
  // folds to MIN. GARUD is the Hindi word for the eagle as well as Vishnu's bird, and kept.
  ['BULL', 'BAIL'],
  ['CAMEL', 'OONT'],
  ['MONKEY', 'BANDAR', 'VANAR'],
  ['EAGLE', 'GARUD', 'GARUDA'],
  ['FISH', 'MACHHLI', 'MACHLI', 'MATSYA'],
  ['CROCODILE', 'MAGAR', 'MAGARMACHH'],
  ['WOLF', 'BHEDIYA'],
  ['RABBIT', 'KHARGOSH'],
  ['OWL', 'ULLU'],
  ['CAT', 'BILLI'],
  ['GOAT', 'BAKRI', 'BAKRA'],
  ['PIGEON', 'KABOOTAR'],
  ['CUCKOO', 'KOYAL', 'KOEL'],
  ['BUTTERFLY', 'TITLI'],
  ['TORTOISE', 'KACHHUA', 'KACHUA'],
  ['COCK', 'MURGA'],
  // Devotional words and virtues, where the register has an English word for them; not deities' names.
  // Left out: SHANTI (peace), DEV (god), POOJA (worship), mainly names; SHUDH (pure), which folds to
  // SUD, as the surname SOOD does; BAL (strength), which is also बाल, hair.
  ['GOD', 'BHAGWAN', 'ISHWAR', 'PRABHU'],
  ['GODDESS', 'DEVI'],
  ['BLESSING', 'ASHIRWAD'],
  ['GRACE', 'KRIPA', 'KRUPA'],
  ['PURE', 'SHUDDH'],
  ['HOLY', 'PAVITRA'],
  ['HEAVEN', 'SWARG', 'SWARGA'],
  ['PARADISE', 'JANNAT'],
  ['POWER', 'SHAKTI', 'TAQAT'],
  ['ENERGY', 'URJA'],
  ['STRONG', 'MAZBOOT'],
  ['TRUST', 'BHAROSA'],
  // Numbers. Left out, as each is also a frequent unrelated word: DO (two; and TWO folds to TO), TEEN
  // (three, English teen; folds to TIN), SAAT (seven; folds to SAT, as SAATH, with, does), AATH (eight;
  // folds to AT), DAS (ten, a common surname), NAU and NAV (nine; NAV is also new). CHAR (four) is kept:
  // on the Indian register it is far more often Hindi four (CHAR MINAR) than English char.
  ['ONE', 'EK'],
  ['FOUR', 'CHAR'],
  ['FIVE', 'PANCH'],
  ['HUNDRED', 'SAU'],
  ['THOUSAND', 'HAZAR'],
  ['ZERO', 'SHUNYA'],
  // Trade words and things on labels. Left out: TREE (PED, VRIKSH), which folds to TRI as THREE and 3 do, so
  // every mark with a 3 read as a tree; BAGH (garden), which is the tiger above; MAKAN
  // (house) and MAKHAN (butter), which fold together; GRAM (village), also the weight and the pulse;
  // RATH (chariot), which folds to RAT; DHAL (shield), which folds to DAL; NAAV (boat), which folds to
  // NAV; JAHAZ (ship), as SHIP folds to SIP; DEEP, DEEPAK and DIYA (lamp), English deep or names.
  ['HOME', 'GHAR', 'GRIH', 'GRIHA'],
  ['VILLAGE', 'GAON', 'PIND'],
  ['GARDEN', 'BAGICHA', 'BAGAN', 'UDYAN'],
  ['FARM', 'KHET'],
  ['FARMER', 'KISAN', 'KISSAN'],
  ['SOLDIER', 'JAWAN', 'SAINIK', 'FAUJI'],
  ['MARKET', 'BAZAAR'],
  ['SHOP', 'DUKAN'],
  ['KITCHEN', 'RASOI'],
  ['TASTE', 'SWAD', 'ZAIKA', 'ZAYKA'],
  ['FRAGRANCE', 'KHUSHBOO', 'SUGANDH'],
  ['GIFT', 'UPHAR', 'TOHFA', 'SAUGAAT'],
  ['TREASURE', 'KHAZANA'],
  ['COUNTRY', 'DESH'],
  ['PALACE', 'MAHAL'],
  ['FORT', 'QILA'],
  ['GATE', 'DWAR', 'DARWAZA'],
  ['FLAG', 'JHANDA', 'DHWAJ'],
  ['KITE', 'PATANG'],
  ['SWORD', 'TALWAR'],
  ['TRIDENT', 'TRISHUL'],
  ['CONCH', 'SHANKH'],
  ['DRUM', 'DHOL'],
  ['FLUTE', 'BANSURI'],
  ['BANYAN', 'BARGAD'],
  ['COCONUT', 'NARIYAL'],
  ['ROSE', 'GULAB'],
  ['JASMINE', 'CHAMELI', 'MOGRA'],
];

/** Every meaning as listed: its English word first (for the checks in test/threats/translations.test.ts). */
export const listedMeanings = (): readonly (readonly string[])[] => MEANINGS;

/** Romanised word → its meaning's English word (an English word maps to itself). */
const MEANING = new Map<string, string>();
/** English word → every word of that meaning, English first, as written above. */
const FORMS = new Map<string, string[]>();
for (const line of MEANINGS) {
  FORMS.set(line[0], line);
  for (const w of line) MEANING.set(romanise(w), line[0]);
}

/** The meaning of a normalised word (its English word), or undefined when it has none listed. */
export function meaningOf(word: string): string | undefined {
  // Asked for every word of every candidate: romanising is the cost, so each word's answer is kept.
  let m = meanings.get(word);
  if (m === undefined) {
    if (meanings.size >= MEANINGS_KEPT) meanings.clear();
    meanings.set(word, (m = MEANING.get(romanise(word)) ?? null));
  }
  return m ?? undefined;
}

const MEANINGS_KEPT = 200_000;
const meanings = new Map<string, string | null>();

/** The other words of the same meaning, in the other language(s): what a translated copy would say. */
export function equivalents(word: string): string[] {
  const m = meaningOf(word);
  if (!m) return [];
  const r = romanise(word);
  return FORMS.get(m)!.filter((w) => romanise(w) !== r);
}
