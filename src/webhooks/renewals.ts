// trademark.renewal_due: a daily job writes one outbox event per mark and threshold (90, 30 and 7
// days before expiry, on UTC dates), recorded in renewal_reminders under a unique key (mark, threshold,
// expiry date): a second run the same day, or any later run, finds it there and writes nothing; a new
// expiry date is a new key, so the reminders start again. A mark is reminded at the threshold whose
// window it is in — (30, 90] days left for 90, (7, 30] for 30, [0, 7] for 7 — so a mark whose expiry
// first appears 20 days ahead gets the 30-day reminder only, and a day the job missed is caught up.
// The SQL is RenewalRepository's (src/webhooks/renewalRepository.ts).
export const RENEWALS_QUEUE = 'renewal-reminders';
export const RENEWAL_THRESHOLDS = [90, 30, 7] as const;
