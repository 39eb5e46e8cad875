// The marks the other_script queries look for (queries/scripts.ts): marks registered in an Indian
// script beside their romanised twins (दैनिक भास्कर and DAINIK BHASKAR, Gujarati વાઘ બકરી and
// WAGH BAKRI, Kannada ನಂದಿನಿ, Tamil ஆச்சி, Bengali মুখরোচক, Gurmukhi ਵੇਰਕਾ), copies that swap Latin
// letters for the Cyrillic or Greek ones drawn alike (ВАТА for BATA, ΚΕΝΤ for KENT), and marks
// spelled with accents or letters such as Æ, Ø, Ł and Œ (LAKMÉ, MÆRSK, ØRSTED, ŁOMŻA, CŒUR).
// Families as in register.ts; application numbers 9_06FF_MM, apart from register.ts's 9_0001_01 to
// 9_0147_03 and registerPartial.ts's 9_0501_01 to 9_0586_01.

const REG = 'Registered';
const OBJ = 'Objected';
const REF = 'Refused';

export const SCRIPTS_REGISTER: [appNo: number, mark: string, cls: number, status: string][] = [
  // Registered in an Indian script, with the romanised mark and its near copies.
  [9_0601_01, 'दैनिक भास्कर', 16, REG],
  [9_0601_02, 'DAINIK BHASKAR', 16, REG],
  [9_0601_03, 'DIVYA BHASKAR', 16, REG],
  [9_0601_04, 'BHASKAR', 16, OBJ],
  [9_0602_01, 'पारस', 29, REG],
  [9_0602_02, 'PARAS', 29, REG],
  [9_0602_03, 'PARAS GHEE', 29, REG],
  [9_0602_04, 'PAARAS', 29, OBJ],
  [9_0603_01, 'आँचल', 29, REG],
  [9_0603_02, 'AANCHAL', 29, REG],
  [9_0603_03, 'ANCHAL DAIRY', 29, OBJ],
  [9_0604_01, 'WAGH BAKRI', 30, REG],
  [9_0604_02, 'વાઘ બકરી', 30, REG],
  [9_0604_03, 'वाघ बकरी', 30, OBJ],
  [9_0604_04, 'BAGH BAKRI', 30, REF],
  [9_0605_01, 'NANDINI', 29, REG],
  [9_0605_02, 'ನಂದಿನಿ', 29, REG],
  [9_0605_03, 'NANDINI GOODLIFE', 29, REG],
  [9_0605_04, 'NANDANI', 29, REF],
  [9_0606_01, 'CHANDRIKA', 3, REG],
  [9_0606_02, 'चंद्रिका', 3, REG],
  [9_0606_03, 'CHANDRIKA AYURVEDIC SOAP', 3, REG],
  [9_0606_04, 'CHANDRICA', 3, OBJ],
  [9_0607_01, 'AACHI', 30, REG],
  [9_0607_02, 'ஆச்சி', 30, REG],
  [9_0607_03, 'AACHI MASALA', 30, REG],
  [9_0607_04, 'ACHI', 30, OBJ],
  [9_0608_01, 'हमदर्द', 5, REG],
  [9_0608_02, 'HAMDARD', 5, REG],
  [9_0608_03, 'HUMDARD', 5, REF],
  [9_0609_01, 'साँची', 29, REG],
  [9_0609_02, 'SANCHI', 29, REG],
  [9_0609_03, 'SANCHI GHEE', 29, REG],
  [9_0609_04, 'SAANCHI', 29, OBJ],
  [9_0610_01, 'सुधा', 29, REG],
  [9_0610_02, 'SUDHA', 29, REG],
  [9_0610_03, 'SUDHA DAIRY', 29, REG],
  [9_0612_01, 'MUKHAROCHAK', 30, REG],
  [9_0612_02, 'মুখরোচক', 30, REG],
  [9_0612_03, 'MUKHROCHAK', 30, OBJ],
  [9_0613_01, 'VERKA', 29, REG],
  [9_0613_02, 'ਵੇਰਕਾ', 29, REG],
  [9_0613_03, 'WERKA', 29, REF],

  // Copies written with Cyrillic or Greek letters that look Latin.
  [9_0620_01, 'BATA', 25, REG],
  [9_0620_02, 'BATA POWER', 25, REG],
  [9_0620_03, 'ВАТА', 25, REF], // Cyrillic В А Т А
  [9_0620_04, 'BAATA', 25, OBJ],
  [9_0621_01, 'OPPO', 9, REG],
  [9_0621_02, 'ОРРО', 9, REF], // Cyrillic О Р Р О
  [9_0621_03, 'OPPO RENO', 9, REG],
  [9_0622_01, 'PAYTM', 36, REG],
  [9_0622_02, 'PAYTM MALL', 35, REG],
  [9_0622_03, 'РАYТМ', 36, OBJ], // Cyrillic Р А Т М, Latin Y
  [9_0622_04, 'PAY TM', 36, REF],
  [9_0623_01, 'HAMAM', 3, REG],
  [9_0623_02, 'НАМАМ', 3, REF], // Cyrillic
  [9_0623_03, 'HAMAAM', 3, OBJ],
  [9_0624_01, 'KENT', 11, REG],
  [9_0624_02, 'KENT RO', 11, REG],
  [9_0624_03, 'ΚΕΝΤ', 11, REF], // Greek Κ Ε Ν Τ
  [9_0625_01, 'BOAT', 9, REG],
  [9_0625_02, 'ВОАТ', 9, REF], // Cyrillic
  [9_0625_03, 'BOAT ROCKERZ', 9, REG],
  [9_0626_01, 'MAMAEARTH', 3, REG],
  [9_0626_02, 'MAMA EARTH', 3, OBJ],
  [9_0626_03, 'МАМАЕАRТН', 3, REF], // Cyrillic but for the R

  // Accents, Æ, Ø, Ł, Œ, and Cyrillic words.
  [9_0630_01, 'LAKMÉ', 3, REG],
  [9_0630_02, 'LAKMÉ SALON', 44, REG],
  [9_0630_03, 'LACME', 3, REF],
  [9_0630_04, 'LAKMEE', 3, OBJ],
  [9_0631_01, 'NESTLÉ', 30, REG],
  [9_0631_02, 'NESTLÉ MILKMAID', 29, REG],
  [9_0631_03, 'NESTEL', 30, REF],
  [9_0632_01, 'CAFÉ MADRAS', 43, REG],
  [9_0632_02, 'CAFE MADRAS', 43, OBJ],
  [9_0632_03, 'MADRAS CAFÉ', 43, REF],
  [9_0633_01, 'MÆRSK', 39, REG],
  [9_0633_02, 'MAERSK LOGISTICS', 39, REG],
  [9_0633_03, 'MERSK', 39, REF],
  [9_0634_01, 'ØRSTED', 4, REG],
  [9_0634_02, 'ORSTED', 40, OBJ],
  [9_0635_01, 'ŻUBRÓWKA', 33, REG],
  [9_0635_02, 'ZUBROWKA', 33, OBJ],
  [9_0636_01, 'ŁOMŻA', 32, REG],
  [9_0636_02, 'LOMZA', 32, OBJ],
  [9_0637_01, 'CŒUR DE LION', 14, REG],
  [9_0637_02, 'COEUR', 14, OBJ],
  [9_0638_01, 'SMIRNOFF', 33, REG],
  [9_0638_02, 'SMIRNOFF VODKA', 33, REG],
  [9_0638_03, 'SMIRNOV', 33, REF],
  [9_0639_01, 'MOËT & CHANDON', 33, REG],
  [9_0639_02, 'MOËT', 33, REG],
  [9_0639_03, 'MOETT', 33, REF],
  [9_0640_01, 'STOLICHNAYA', 33, REG],
  [9_0640_02, 'СТОЛИЧНАЯ', 33, REG],
];
