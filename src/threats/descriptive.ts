import { CLASS_GROUPS } from './classes.ts';

// Words that describe the goods or services, or the business, rather than tell one trader from
// another (Trade Marks Act 1999, s. 9(1)(b)): an examiner looks past them to the rest of the mark, so
// KRISHNA REMEDIES and KRISHNA in medicines share their dominant word, and SHREE MED and SURYA MED
// share none. A register's own counts do not always show it: a trade word may be rare in the register
// as a whole (REMEDIES), yet it says nothing of origin in its trade. Lists by the class groups of
// src/threats/classes.ts (in that order), written from the Nice class headings and the trade words of
// Indian filings; docs/threats.md explains how they weigh. THE, OF and AND join the words of a mark
// (HOUSE OF SHREE, THE BALAJI) and tell no trader from another in any trade.

/** Weight of a descriptive word (a shared one still counts, as much as the register's commonest words). */
export const DESCRIPTIVE_WEIGHT = 0.1;

const ANY_CLASS = `INDUSTRIES INDUSTRY PRODUCTS PRODUCT INTERNATIONAL GROUP INDIA BRAND BRANDS CORPORATION CORP
  COMPANY CO LTD LIMITED PVT PRIVATE LLP SONS BROTHERS BROS NO PLUS ENTERPRISES ENTERPRISE THE OF AND`;

const BY_GROUP: string[] = [
  // food, drink and eating out
  `FOODS FOOD AGRO DAIRY MILK GHEE OIL OILS MASALA MASALE SPICES TEA COFFEE CHAI ATTA RICE FLOUR DAL BISCUITS
   SWEETS NAMKEEN SNACKS PICKLES BAKERY BAKERS FARMS FARM SEEDS FEEDS FRUITS GRAINS BEVERAGES DRINKS AQUA WATER
   SODA JUICE WINES WINE SPIRITS DISTILLERIES BREWERIES RESTAURANT CAFE DHABA KITCHEN HOTEL HOTELS`,
  // health, medicine and personal care
  `PHARMA PHARMACEUTICALS HEALTHCARE HEALTH CARE MED MEDI MEDICARE REMEDIES CURE AYURVEDA AYURVEDIC HERBAL
   HERBALS LIFESCIENCES LIFE SCIENCES BIOTECH LABS LABORATORIES DRUGS SURGICAL MEDICAL CLINIC HOSPITAL
   DIAGNOSTICS DENTAL SALON SPA COSMETICS BEAUTY SOAP AGARBATTI DHOOP`,
  // electronics, software and telecoms
  `TECH TECHNOLOGIES TECHNOLOGY INFOTECH INFOSYS INFO SOFTWARE SYSTEMS SOLUTIONS ELECTRONICS DIGITAL SOLAR
   POWER MOBILE MOBILES TELECOM NETWORK NETWORKS MEDIA LABS COMPUTERS DATA CLOUD NET WEB`,
  // clothing, jewellery, leather and textiles
  `FASHION FASHIONS GARMENTS CREATION CREATIONS WEAR COLLECTION COLLECTIONS TEX TEXTILES FABRICS JEANS KIDS
   JEWELLERS JEWELLERY JEWELS GEMS WATCHES ORNAMENTS BAGS LEATHER LUGGAGE FURNISHINGS LACES BUTTONS SAREES SILK`,
  // business, finance, building, transport, education and legal services
  `TRADERS TRADING SOLUTIONS SERVICES MART RETAIL BAZAAR STORES STORE EXPORTS IMPORTS FINANCE FINANCIAL
   CAPITAL INVESTMENTS BUILDERS CONSTRUCTIONS CONSTRUCTION DEVELOPERS INFRA REALTY ESTATES LOGISTICS TRAVELS
   TOURS CARGO TRANSPORT COURIER PROCESSING PRINTERS ACADEMY CLASSES EDUCATION INSTITUTE SCHOOL FILMS EVENTS
   ENTERTAINMENT SECURITY LEGAL ASSOCIATES CONSULTANTS CONSULTANCY`,
  // chemicals, paints, fuels and materials
  `CHEMICALS FERTILIZERS FERTILISERS AGRO PAINTS COLOURS COATINGS OIL OILS LUBRICANTS FUELS PETROLEUM RUBBER
   PLAST PLASTICS POLYMERS CEMENT TILES CERAMICS PLY PLYWOOD MARBLE GRANITE`,
  // metals, machines, tools, appliances and vehicles
  `STEEL STEELS METALS IRON PIPES HARDWARE MACHINES MACHINERY ENGINEERING ENGINEERS PUMPS MOTORS TOOLS
   CUTLERY BLADES APPLIANCES LIGHTS LIGHTING ELECTRICALS ELECTRICS COOLERS FANS AUTO AUTOMOBILES TYRES WHEELS
   CYCLES FIREWORKS CRACKERS`,
  // household goods, paper, furniture, toys and tobacco
  `MUSICALS INSTRUMENTS PAPER PAPERS PRINTS STATIONERY PENS FURNITURE INTERIORS PLAST KITCHEN WARE HOUSEWARES
   UTENSILS ROPES NETS YARNS THREADS CARPETS MATS TOYS SPORTS GAMES TOBACCO BIDI BEEDI SUPARI ZARDA`,
];

// Words that praise or describe goods of any trade (Trade Marks Act 1999, s.9(1)(b)): the registrability grounds
// (src/clearance/plainWords.ts) raise them when a mark is made of nothing else, and a comparison weighs them as the
// trades' own descriptive words, so that TATA FRESH and 8 FRESH are not alike in a distinctive word.
/** Words of praise or rank, in any class. */
export const LAUDATORY = `BEST SUPER SUPERB SUPREME PREMIUM PERFECT FINE FINEST EXCELLENT EXCELLENCE TOP DELUXE SPECIAL QUALITY PURE
  GENUINE ORIGINAL ULTIMATE SUPERIOR IDEAL FIRST PRIME CHOICE SELECT ELITE LUXURY GREAT GOOD BETTER NO1 NUMBER1 CLASSIC
  ASLI ASSLI ASALI SHUDH SHUDDH SUDH SHUDDHA UTTAM SHRESHTH SHRESHTHA BADHIYA BADIYA UMDA KHAAS KHAS BEHTAREEN ACHHA`;

/** Words that say what the goods are like, made of, for or how much (any class unless listed by class below). */
export const DESCRIPTIVE = `FRESH ORGANIC NATURAL NATURALS INSTANT DAILY EXTRA HOMEMADE HOMESTYLE KIDS DIET LITE LIGHT
  SOFT STRONG QUICK FAST EASY MINI JUMBO MEGA FAMILY PACK ECONOMY VALUE FRESHLY READY CLEAN HERBAL AYURVEDIC VEG
  TAZA TAAZA TAZZA DESI GHARELU SWADESHI SASTA TEZ`;
/** Descriptive only of food and drink (and their outlets). */
export const FOOD_DESCRIPTIVE = `CRISPY CRUNCHY SPICY TASTY DELICIOUS YUMMY SWEET SALTED ROASTED CHATPATA CHATPATE MASALEDAR SWADISHT KHATTA
  MEETHA TEEKHA GARAM HEALTHY HEALTH`;
export const FOOD = [29, 30, 31, 32, 33, 43];
const words = (s: string) => s.trim().split(/\s+/);
const plain = new Set([...words(LAUDATORY), ...words(DESCRIPTIVE)]);
const foodPlain = new Set(words(FOOD_DESCRIPTIVE));
const anyClass = new Set(words(ANY_CLASS));
const byGroup = BY_GROUP.map((s) => new Set([...words(s), ...anyClass]));

/** The descriptive words of the trade the classes belong to (the group of their first class), or of any trade. */
export function descriptiveWords(classes: readonly number[] | null): ReadonlySet<string> {
  if (!classes?.length) return anyClass;
  const g = CLASS_GROUPS.findIndex((x) => x.classes.includes(classes[0]));
  return g >= 0 ? byGroup[g] : anyClass;
}

/** A word's weight in the classes' trade: at most DESCRIPTIVE_WEIGHT for one of its descriptive words, or of praise or description. */
export function descriptiveCap(classes: readonly number[] | null): (word: string, weight: number) => number {
  const descriptive = descriptiveWords(classes);
  const food = classes?.some((c) => FOOD.includes(c)) ?? false;
  return (w, x) => (descriptive.has(w) || plain.has(w) || (food && foodPlain.has(w)) ? Math.min(x, DESCRIPTIVE_WEIGHT) : x);
}

/** Whether descriptiveCap caps the word in some trade. */
export const mayBeCapped = (w: string): boolean => TRADE_WORDS.has(w) || plain.has(w) || foodPlain.has(w);

/**
 * The descriptive words of every trade. Search weighs them alike whatever classes it is filtered by,
 * so that a filter keeps the marks an unfiltered search finds in those classes, no more and no fewer;
 * and a word that describes goods in any trade (PICKLES, DIAGNOSTICS) is not what tells a mark apart.
 */
export const TRADE_WORDS: ReadonlySet<string> = new Set(byGroup.flatMap((g) => [...g]));
