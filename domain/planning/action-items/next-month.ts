/** The month after `month` (YYYY-MM, `2026-12` → `2027-01`): where a closed month's unfinished items go by default. */
export function monthAfter(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number]
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`
}
