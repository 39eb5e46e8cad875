// The words of the trade (and of our API's errors) in both interface languages, decided once: every string
// table names its terms from here, and test/web/glossary.test.ts fails on a variant this list avoids, or on an
// error code of the API's closed list (src/errors.ts) without a Hindi message.

/** Terms: English, the Hindi used everywhere, and Hindi variants never to use for it. */
export const TERMS = {
  // The Act's own Hindi (व्यापार चिह्न अधिनियम) says चिह्न for "mark"; "ट्रेड मार्क" is kept only as the name of the register.
  mark: { en: 'mark', hi: 'चिह्न', avoid: ['शब्द मार्क', 'कोई मार्क', 'मार्क मिले', 'पूरा मार्क', '100 मार्क', '10 मार्क'] },
  wordMark: { en: 'Word mark', hi: 'शब्द चिह्न', avoid: ['शब्द मार्क'] },
  register: { en: 'trade mark register', hi: 'ट्रेड मार्क रजिस्टर', avoid: ['ट्रेडमार्क रजिस्टर'] },
  classes: { en: 'Classes', hi: 'वर्ग', avoid: ['क्लास'] },
  proprietor: { en: 'Proprietor', hi: 'स्वामी', avoid: ['मालिक', 'प्रोपराइटर'] },
  clearance: { en: 'Clearance', hi: 'क्लीयरेंस', avoid: ['क्लियरेंस'] },
  watch: { en: 'Watch', hi: 'निगरानी', avoid: ['वॉच'] },
  high: { en: 'High', hi: 'उच्च', avoid: [] },
  medium: { en: 'Medium', hi: 'मध्यम', avoid: [] },
  low: { en: 'Low', hi: 'निम्न', avoid: [] },
} as const;

export const RISK_WORDS: Record<string, { en: string; hi: string }> = {
  High: TERMS.high,
  Medium: TERMS.medium,
  Low: TERMS.low,
};

/** The API's error codes (its closed list) in Hindi: what a Hindi page shows in place of the English message. */
export const ERRORS_HI: Record<string, string> = {
  bad_request: 'अनुरोध सही नहीं है।',
  validation_error: 'यह जानकारी सही नहीं है',
  malformed_json: 'अनुरोध का प्रारूप सही नहीं है।',
  unauthorized: 'आप साइन इन नहीं हैं, या आपका सत्र समाप्त हो गया है।',
  invalid_credentials: 'ईमेल या पासवर्ड सही नहीं है।',
  forbidden: 'यह अनुरोध अनुमत नहीं है।',
  category_not_on_plan: 'यह जानकारी आपके प्लान में नहीं है।',
  subscription_inactive: 'आपकी सदस्यता सक्रिय नहीं है।',
  bulk_not_on_plan: 'बल्क खोज आपके प्लान में नहीं है।',
  bulk_size_exceeds_plan: 'आपका प्लान एक अनुरोध में इतने आइटम की अनुमति नहीं देता।',
  webhooks_not_on_plan: 'वेबहुक आपके प्लान में नहीं हैं।',
  clearance_not_on_plan: 'क्लीयरेंस आपके प्लान में नहीं है।',
  watches_not_on_plan: 'समानता निगरानी आपके प्लान में नहीं है।',
  monitored_limit_exceeded: 'आपके प्लान की निगरानी वाले चिह्नों की सीमा पूरी हो गई है।',
  signature_invalid: 'लिंक का हस्ताक्षर सही नहीं है।',
  url_expired: 'यह लिंक समाप्त हो गया है।',
  not_found: 'यह नहीं मिला।',
  method_not_allowed: 'यह क्रिया अनुमत नहीं है।',
  email_taken: 'यह ईमेल पहले से पंजीकृत है।',
  key_limit_reached: 'आपके पास अधिकतम कुंजियाँ हैं।',
  webhook_inactive: 'यह वेबहुक निष्क्रिय है।',
  not_replayable: 'परीक्षण डिलीवरी दोबारा नहीं भेजी जाती।',
  job_not_finished: 'यह काम अभी पूरा नहीं हुआ है।',
  precondition_failed: 'अनुरोध की पूर्व-शर्त पूरी नहीं हुई।',
  request_timeout: 'अपलोड में बहुत समय लगा।',
  payload_too_large: 'फ़ाइल या अनुरोध बहुत बड़ा है।',
  unsupported_media_type: 'यह फ़ाइल प्रकार समर्थित नहीं है।',
  range_not_satisfiable: 'माँगा गया भाग फ़ाइल में नहीं है।',
  ip_rate_limited: 'बहुत अधिक अनुरोध: थोड़ी देर बाद फिर कोशिश करें।',
  key_rate_limited: 'बहुत अधिक अनुरोध: थोड़ी देर बाद फिर कोशिश करें।',
  concurrency_limited: 'एक साथ बहुत अधिक अनुरोध: थोड़ी देर बाद फिर कोशिश करें।',
  quota_exceeded: 'इस महीने का कोटा पूरा हो गया है।',
  public_search_limited: 'इस घंटे की मुफ़्त खोजें पूरी हो गईं।',
  login_throttled: 'बहुत अधिक असफल प्रयास: थोड़ी देर बाद फिर कोशिश करें।',
  not_an_image: 'यह फ़ाइल चित्र नहीं है।',
  unsupported_image_type: 'यह चित्र प्रकार समर्थित नहीं है।',
  image_type_mismatch: 'चित्र का प्रकार उसके नाम से मेल नहीं खाता।',
  image_corrupt: 'चित्र खराब है और पढ़ा नहीं जा सका।',
  image_dimensions: 'चित्र का आकार स्वीकार्य सीमा से बाहर है।',
  svg_refused: 'यह SVG स्वीकार नहीं किया जा सकता।',
  image_url_refused: 'यह चित्र URL स्वीकार नहीं किया जा सकता।',
  image_url_unreachable: 'चित्र URL तक पहुँचा नहीं जा सका।',
  image_url_too_large: 'चित्र URL की फ़ाइल बहुत बड़ी है।',
  internal_error: 'कुछ गलत हो गया। कृपया फिर से कोशिश करें।',
  service_unavailable: 'सेवा अभी उपलब्ध नहीं है: थोड़ी देर बाद फिर कोशिश करें।',
};

/** Request fields by the words a Hindi page uses for them, for a validation error that names them. */
export const FIELDS_HI: Record<string, string> = {
  word_mark: TERMS.wordMark.hi,
  classes: TERMS.classes.hi,
  class_number: 'वर्ग',
  email: 'ईमेल',
  password: 'पासवर्ड',
  first_name: 'पहला नाम',
  last_name: 'अंतिम नाम',
  name: 'नाम',
  url: 'पता (URL)',
  events: 'घटनाएँ',
  monitored_applications: 'निगरानी वाले आवेदन',
  logo_url: 'लोगो URL',
  uploaded_file: 'लोगो',
  min_risk: 'न्यूनतम जोखिम',
  webhook_id: 'वेबहुक',
  proposals: 'नाम',
  proprietor: TERMS.proprietor.hi,
  application_date_from: 'दाखिल तिथि (से)',
  application_date_to: 'दाखिल तिथि (तक)',
  secret: 'गुप्त कुंजी',
  goods_services: 'माल और सेवाएँ',
};

/** The plan categories (contract §6) by what they open, for the plan page. */
export const CATEGORY_WORDS: Record<string, { en: string; hi: string }> = {
  cat_status_history: { en: 'status history', hi: 'स्थिति इतिहास' },
  cat_alert_changes: { en: 'alert changes', hi: 'अलर्ट परिवर्तन' },
  cat_proprietor: { en: 'proprietor', hi: 'स्वामी' },
  cat_attorney: { en: 'attorney', hi: 'अधिवक्ता' },
  cat_oppositions: { en: 'oppositions', hi: 'विरोध' },
  cat_opp_docs: { en: 'opposition documents', hi: 'विरोध दस्तावेज़' },
  cat_hearings: { en: 'hearings', hi: 'सुनवाई' },
  cat_documents: { en: 'documents', hi: 'दस्तावेज़' },
  cat_exam_reports: { en: 'examination reports', hi: 'परीक्षा रिपोर्ट' },
  cat_journal: { en: 'journal', hi: 'जर्नल' },
  cat_threats: { en: 'threat analysis of filed marks', hi: 'दाखिल चिह्नों का खतरा विश्लेषण' },
  cat_well_known: { en: 'well-known marks list', hi: 'सुप्रसिद्ध चिह्न सूची' },
  cat_prohibited: { en: 'prohibited marks list', hi: 'निषिद्ध चिह्न सूची' },
  cat_inn_names: { en: 'non-proprietary (INN) names', hi: 'गैर-स्वामित्व (INN) नाम' },
  cat_stamp_duty: { en: 'stamp duty', hi: 'स्टांप शुल्क' },
  cat_tm_class: { en: 'class search', hi: 'वर्ग खोज' },
};
