// Real brand names in pairs, labelled by hand as confusing or not, independent of the generator (whose
// cited marks calibrate the weights): the check that the scores mean what a trade mark lawyer means.
// Every pair is judged as if both marks were live and in the same class. `kind` says what makes a
// confusing pair confusing (spelling, sound, Hinglish respelling, shared distinctive word, joined or
// split, translation) or what a non-confusing pair has in common (a shared start, a shared common word,
// a neighbouring meaning in the other language, nothing). Scored by bench/threatsCalibrate.ts and
// test/threats/labelled.test.ts with the same code as the endpoint.

export type PairKind =
  | 'spelling'
  | 'sound'
  | 'hinglish'
  | 'shared_word'
  | 'joined_split'
  | 'translation'
  | 'shared_start'
  | 'shared_common_word'
  | 'different'
  | 'different_meaning';

export interface LabelledPair {
  a: string;
  b: string;
  confusing: boolean;
  kind: PairKind;
}

const P = (a: string, b: string, confusing: boolean, kind: PairKind): LabelledPair => ({ a, b, confusing, kind });

export const LABELLED_PAIRS: LabelledPair[] = [
  // Confusing: spelling (a letter added, dropped, doubled or swapped).
  P('NIKE', 'NIKEE', true, 'spelling'),
  P('ADIDAS', 'ADIDDAS', true, 'spelling'),
  P('REEBOK', 'REBOOK', true, 'spelling'),
  P('COLGATE', 'COLGAT', true, 'spelling'),
  P('DETTOL', 'DETOL', true, 'spelling'),
  P('HORLICKS', 'HORLIKS', true, 'spelling'),
  P('BOURNVITA', 'BORNVITA', true, 'spelling'),
  P('MAGGI', 'MAGGIE', true, 'spelling'),
  P('BRITANNIA', 'BRITANIA', true, 'spelling'),
  P('CADBURY', 'CADBERRY', true, 'spelling'),
  P('NESCAFE', 'NESCAFFE', true, 'spelling'),
  P('LIFEBUOY', 'LIFEBOY', true, 'spelling'),
  P('BISLERI', 'BISLERY', true, 'spelling'),
  P('HALDIRAM', 'HALDIRAMS', true, 'spelling'),
  P('PATANJALI', 'PATANJLI', true, 'spelling'),
  P('GODREJ', 'GODREJJ', true, 'spelling'),
  P('HIMALAYA', 'HIMALYA', true, 'spelling'),
  P('DOMINOS', 'DOMINO', true, 'spelling'),
  P('PEPSODENT', 'PEPSODANT', true, 'spelling'),
  P('VASELINE', 'VASLINE', true, 'spelling'),
  P('KURKURE', 'KURKURAY', true, 'spelling'),
  P('SURF EXCEL', 'SURF EXCELL', true, 'spelling'),
  P('CINTHOL', 'CINTOL', true, 'spelling'),
  P('PARACHUTE', 'PARACHUTTE', true, 'spelling'),
  // Confusing: sound (spelled differently, said alike).
  P('VICKS', 'VIKS', true, 'sound'),
  P('LAKME', 'LACME', true, 'sound'),
  P('FEVICOL', 'FEVIKOL', true, 'sound'),
  P('KWALITY', 'QUALITY', true, 'sound'),
  P('FROOTI', 'FRUTI', true, 'sound'),
  P('4 SEASONS', 'FOUR SEASONS', true, 'sound'),
  P('7 UP', 'SEVEN UP', true, 'sound'),
  P('NITE QUEEN', 'NIGHT QUEEN', true, 'sound'),
  P('XPRESS', 'EXPRESS', true, 'sound'),
  P('KOOL', 'COOL', true, 'sound'),
  P('KRACKJACK', 'CRACKJACK', true, 'sound'),
  P('FANTA', 'PHANTA', true, 'sound'),
  P('LUX', 'LUCKS', true, 'sound'),
  P('SUNFEAST', 'SUNFEEST', true, 'sound'),
  P('CLOSE UP', 'KLOSE UP', true, 'sound'),
  // Confusing: Hinglish respelling (one Hindi sound, several romanisations).
  P('SHREE GANESH', 'SRI GANESH', true, 'hinglish'),
  P('LAXMI', 'LAKSHMI', true, 'hinglish'),
  P('KHUSHI', 'KUSHI', true, 'hinglish'),
  P('BHARAT', 'BHARATH', true, 'hinglish'),
  P('VIJAY', 'WIJAY', true, 'hinglish'),
  P('SHAKTI', 'SAKTHI', true, 'hinglish'),
  P('KRISHNA', 'KRISNA', true, 'hinglish'),
  P('DURGA', 'DOORGA', true, 'hinglish'),
  P('MAHALAXMI', 'MAHALAKSHMI', true, 'hinglish'),
  P('JYOTHI', 'JYOTI', true, 'hinglish'),
  P('SHIVA', 'SIVA', true, 'hinglish'),
  P('RAJDHANI', 'RAJDHANEE', true, 'hinglish'),
  P('AMUL', 'AMOOL', true, 'hinglish'),
  P('DABUR', 'DAABUR', true, 'hinglish'),
  P('ZANDU', 'JANDU', true, 'hinglish'),
  P('PHOOL', 'FOOL', true, 'hinglish'),
  P('SHRI RAM', 'SHREE RAAM', true, 'hinglish'),
  P('BIKANERVALA', 'BIKANERWALA', true, 'hinglish'),
  P('CHHOTU', 'CHOTU', true, 'hinglish'),
  P('GANGA', 'GUNGA', true, 'hinglish'),
  // Confusing: a shared distinctive word (the copy keeps it and changes or adds the rest).
  P('HALDIRAM BHUJIA', 'HALDIRAM', true, 'shared_word'),
  P('BIKAJI NAMKEEN', 'BIKAJI', true, 'shared_word'),
  P('AMUL GOLD', 'AMUL', true, 'shared_word'),
  P('MAGGI NOODLES', 'MAGGI MASALA', true, 'shared_word'),
  P('DABUR HONEY', 'DABUR', true, 'shared_word'),
  P('KINGFISHER PREMIUM', 'KINGFISHER', true, 'shared_word'),
  P('EVEREST MASALA', 'EVEREST', true, 'shared_word'),
  P('ROYAL ENFIELD', 'ENFIELD', true, 'shared_word'),
  P('BRITANNIA GOOD DAY', 'BRITANNIA', true, 'shared_word'),
  P('NEW PATANJALI', 'PATANJALI', true, 'shared_word'),
  P('SHREE BISLERI', 'BISLERI', true, 'shared_word'),
  P('CADBURY DAIRY MILK', 'CADBURY', true, 'shared_word'),
  P('MTR FOODS', 'MTR', true, 'shared_word'),
  P('GODREJ NO 1', 'GODREJ', true, 'shared_word'),
  // Confusing: joined or split.
  P('SUN RISE', 'SUNRISE', true, 'joined_split'),
  P('GOOD KNIGHT', 'GOODKNIGHT', true, 'joined_split'),
  P('PAPER BOAT', 'PAPERBOAT', true, 'joined_split'),
  P('BIG BAZAAR', 'BIGBAZAAR', true, 'joined_split'),
  P('RED BULL', 'REDBULL', true, 'joined_split'),
  P('HIDE AND SEEK', 'HIDE N SEEK', true, 'joined_split'),
  P('SNAPDEAL', 'SNAP DEAL', true, 'joined_split'),
  P('MAKE MY TRIP', 'MAKEMYTRIP', true, 'joined_split'),
  // Confusing: translation (the same idea in Hindi and English; the doctrine of foreign equivalents).
  P('SURAJ', 'SUN', true, 'translation'),
  P('SHER', 'LION', true, 'translation'),
  P('KAMAL', 'LOTUS', true, 'translation'),
  P('HAATHI', 'ELEPHANT', true, 'translation'),
  P('SONA', 'GOLD', true, 'translation'),
  P('RAJA', 'KING', true, 'translation'),
  P('CHAND TARA', 'MOON STAR', true, 'translation'),
  P('MOTI', 'PEARL', true, 'translation'),
  // Not confusing: Hindi and English words of neighbouring but different meanings.
  P('SURAJ', 'MOON', false, 'different_meaning'),
  P('SONA', 'SILVER', false, 'different_meaning'),
  P('SHER', 'TIGER', false, 'different_meaning'),
  P('RAJA', 'QUEEN', false, 'different_meaning'),

  // Not confusing: a shared start or a few shared letters, different words.
  P('NIKE', 'NIKON', false, 'shared_start'),
  P('ADIDAS', 'ADOBE', false, 'shared_start'),
  P('PUMA', 'PUNJAB', false, 'shared_start'),
  P('COLGATE', 'COLOURS', false, 'shared_start'),
  P('TATA', 'TAJ', false, 'shared_start'),
  P('AMUL', 'AMWAY', false, 'shared_start'),
  P('DABUR', 'DALDA', false, 'shared_start'),
  P('BISLERI', 'BISCOTTI', false, 'shared_start'),
  P('LAKME', 'LAKHANI', false, 'shared_start'),
  P('HIMALAYA', 'HAMILTON', false, 'shared_start'),
  P('DOMINOS', 'DOLLAR', false, 'shared_start'),
  P('BRITANNIA', 'BRIDGESTONE', false, 'shared_start'),
  P('HORLICKS', 'HARPIC', false, 'shared_start'),
  P('VICKS', 'VIP', false, 'shared_start'),
  P('MAGGI', 'MAGMA', false, 'shared_start'),
  P('REEBOK', 'RED CHIEF', false, 'shared_start'),
  P('PATANJALI', 'PANTALOONS', false, 'shared_start'),
  P('GODREJ', 'GODIVA', false, 'shared_start'),
  P('KURKURE', 'KUKREJA', false, 'shared_start'),
  P('MARUTI', 'MARICO', false, 'shared_start'),
  P('HERO', 'HONDA', false, 'shared_start'),
  P('BATA', 'BAJAJ', false, 'shared_start'),
  P('SUNSILK', 'SUNDROP', false, 'shared_start'),
  P('CADBURY', 'CAMPA', false, 'shared_start'),
  P('FEVICOL', 'FERRERO', false, 'shared_start'),
  P('PARLE', 'PARKER', false, 'shared_start'),
  P('LIRIL', 'LIVON', false, 'shared_start'),
  P('TIDE', 'TITAN', false, 'shared_start'),
  P('SURF', 'SUGAR', false, 'shared_start'),
  P('RIN', 'RAYMOND', false, 'shared_start'),
  // Not confusing: only a common word in common (laudatory, descriptive, a place or a religious prefix).
  P('ROYAL CHALLENGE', 'ROYAL STAG', false, 'shared_common_word'),
  P('GOLDEN HARVEST', 'GOLDEN TEMPLE', false, 'shared_common_word'),
  P('INDIA GATE', 'INDIA KINGS', false, 'shared_common_word'),
  P('SHREE CEMENT', 'SHREE DIGVIJAY', false, 'shared_common_word'),
  P('NEW HORIZON', 'NEW BALANCE', false, 'shared_common_word'),
  P('SUPER SMELLY', 'SUPER DRY', false, 'shared_common_word'),
  P('FRESH BITE', 'FRESH CHOICE', false, 'shared_common_word'),
  P('STAR SPORTS', 'STAR BAZAAR', false, 'shared_common_word'),
  P('SRI KRISHNA SWEETS', 'SRI VENKATESHWARA SWEETS', false, 'shared_common_word'),
  P('OM SAI FOODS', 'OM KAILASH FOODS', false, 'shared_common_word'),
  P('HAPPY DENT', 'HAPPY HOURS', false, 'shared_common_word'),
  P('GREEN LABEL', 'GREEN VALLEY', false, 'shared_common_word'),
  P('BLUE STAR', 'BLUE DART', false, 'shared_common_word'),
  P('MODERN BREAD', 'MODERN INSULATORS', false, 'shared_common_word'),
  P('JAI HIND', 'JAI MATA DI', false, 'shared_common_word'),
  P('TASTY TREAT', 'TASTY BITES', false, 'shared_common_word'),
  // Not confusing: nothing in common.
  P('APPLE', 'ORANGE', false, 'different'),
  P('TIGER BALM', 'MOOV', false, 'different'),
  P('LUX', 'DOVE', false, 'different'),
  P('AMUL', 'NESTLE', false, 'different'),
  P('PEPSI', 'THUMS UP', false, 'different'),
  P('TANISHQ', 'KALYAN', false, 'different'),
  P('HALDIRAM', 'BIKAJI', false, 'different'),
  P('ASIAN PAINTS', 'BERGER', false, 'different'),
  P('MARUTI', 'MAHINDRA', false, 'different'),
  P('DETTOL', 'SAVLON', false, 'different'),
  P('ZOMATO', 'SWIGGY', false, 'different'),
];
