/**
 * `Date#toISOString` without the engine's Date builtin: every timestamp of every response goes through
 * here (a list page of 25 products with 9 variants formats ~500), and the builtin was the largest single
 * item of a list request's profile (docs/decisions.md, "Timestamps formatted by hand"). Integer
 * arithmetic and two lookup tables format the same string 4–5× faster. Outside years 0000–9999 the
 * builtin's own format (±YYYYYY) applies, so those go to it.
 */

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const DAY_MS = 86_400_000;
const YEAR_10000_MS = 253_402_300_800_000;
const YEAR_0_MS = -62_167_219_200_000;

/** Year, month (1–12) and day of a count of days since 1970-01-01 (H. Hinnant's civil_from_days). */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153); // March = 0
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/** The ISO 8601 UTC form of `date`, exactly as `date.toISOString()` (which also throws on an invalid date). */
export function formatIso(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= YEAR_0_MS && ms < YEAR_10000_MS)) return date.toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const [year, month, day] = civilFromDays(days);
  const yyyy = year < 1000 ? String(year).padStart(4, '0') : String(year);
  return `${yyyy}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[rest - seconds * 1000]}Z`;
}
