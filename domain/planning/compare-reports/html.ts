import { escapeHtml } from '../../aeo/reports/html.js'
import { reportAccent } from '../../organizations/branding.js'
import type { CompareMonthNumbers, CompareSummary } from './events.js'
import type { Mover } from './numbers.js'

/**
 * The compare report as one self-contained HTML page, in the AI Visibility report's look (inline CSS, no
 * script, nothing fetched: a Content-Security-Policy of `default-src 'none'` says so to the browser), so it
 * renders the same offline, attached to a mail or years later. Every string from data is HTML-escaped and
 * the accent color is re-checked. Pure: the same input gives the same bytes.
 */

export interface CompareItemLine {
  readonly tier: string
  readonly action_type: string
  readonly description: string
  readonly page_url: string
  readonly status: string
}

export interface CompareReportInput {
  readonly brand: { readonly name: string; readonly accent_color: string | null }
  readonly client: { readonly name: string; readonly website_url: string }
  readonly month: string
  readonly against_month: string
  /** When the page was rendered (ISO-8601), shown in the footer. */
  readonly generated_at: string
  readonly summary: CompareSummary
  readonly movers: { readonly up: readonly Mover[]; readonly down: readonly Mover[] }
  /** The month's items done, and those still open (pending or in progress). */
  readonly items: { readonly done: readonly CompareItemLine[]; readonly open: readonly CompareItemLine[] }
}

const integer = (n: number) => n.toLocaleString('en-US')
const percent = (num: number, den: number) => (den === 0 ? '–' : `${((num / den) * 100).toFixed(1)}%`)
const position = (p: number | null) => (p === null ? '–' : p.toFixed(1))
const rank = (p: number | null) => (p === null ? 'not in top 100' : `#${p}`)

/** A change cell: the signed difference, colored by whether it is good (`lowerIsBetter` for positions). */
function change(before: number | null, after: number | null, lowerIsBetter = false, digits = 0): string {
  if (before === null || after === null) return '<td class="num muted">–</td>'
  // The difference of the values as shown, so the change column agrees with the two cells beside it.
  const shown = (v: number) => Math.round(v * 10 ** digits)
  const delta = (shown(after) - shown(before)) / 10 ** digits
  if (delta === 0) return '<td class="num muted">no change</td>'
  const good = lowerIsBetter ? delta < 0 : delta > 0
  const text = `${delta > 0 ? '+' : '−'}${digits > 0 ? Math.abs(delta).toFixed(digits) : integer(Math.abs(delta))}`
  return `<td class="num"><span class="verdict ${good ? 'moved-up' : 'moved-down'}">${text}</span></td>`
}

interface MetricRow {
  readonly label: string
  readonly cell: (n: CompareMonthNumbers) => string
  readonly value: (n: CompareMonthNumbers) => number | null
  readonly lowerIsBetter?: boolean
  readonly digits?: number
}

const SECTIONS: readonly { title: string; rows: readonly MetricRow[] }[] = [
  {
    title: 'Positions',
    rows: [
      { label: 'Keywords checked', cell: (n) => integer(n.keywords_ranked), value: (n) => n.keywords_ranked },
      { label: 'In the top 3', cell: (n) => integer(n.top_3), value: (n) => n.top_3 },
      { label: 'In the top 10', cell: (n) => integer(n.top_10), value: (n) => n.top_10 },
      { label: 'In the top 100', cell: (n) => integer(n.top_100), value: (n) => n.top_100 },
      {
        label: 'Average position (top 100)',
        cell: (n) => position(n.average_position),
        value: (n) => n.average_position,
        lowerIsBetter: true,
        digits: 1,
      },
    ],
  },
  {
    title: 'Google Search Console',
    rows: [
      { label: 'Clicks', cell: (n) => integer(n.clicks), value: (n) => n.clicks },
      { label: 'Impressions', cell: (n) => integer(n.impressions), value: (n) => n.impressions },
    ],
  },
  {
    title: 'AI Visibility',
    rows: [
      { label: 'Answers analyzed', cell: (n) => integer(n.ai_answers), value: (n) => n.ai_answers },
      {
        label: 'Presence (named or own site cited)',
        cell: (n) => `${percent(n.ai_present, n.ai_answers)} <span class="muted">(${n.ai_present} / ${n.ai_answers})</span>`,
        value: (n) => (n.ai_answers === 0 ? null : Math.round((n.ai_present / n.ai_answers) * 1000) / 10),
        digits: 1,
      },
    ],
  },
  {
    title: 'Work',
    rows: [
      { label: 'Site changes detected', cell: (n) => integer(n.site_changes), value: (n) => n.site_changes },
      { label: 'Action items planned', cell: (n) => integer(n.items_planned), value: (n) => n.items_planned },
      { label: 'Action items done', cell: (n) => integer(n.items_done), value: (n) => n.items_done },
      { label: 'Carried in from earlier months', cell: (n) => integer(n.items_carried), value: (n) => n.items_carried },
    ],
  },
]

function metricsTable(input: CompareReportInput): string {
  const { month: now, against: before } = input.summary
  const head = `<tr><th>Measure</th><th>${escapeHtml(input.against_month)}</th><th>${escapeHtml(input.month)}</th><th>Change</th></tr>`
  const body = SECTIONS.map(
    (section) =>
      `<tr class="section"><th colspan="4">${escapeHtml(section.title)}</th></tr>` +
      section.rows
        .map(
          (row) =>
            `<tr><th scope="row">${escapeHtml(row.label)}</th><td class="num">${row.cell(before)}</td><td class="num">${row.cell(now)}</td>` +
            `${change(row.value(before), row.value(now), row.lowerIsBetter, row.digits)}</tr>`,
        )
        .join(''),
  ).join('')
  return `<table class="compare"><thead>${head}</thead><tbody>${body}</tbody></table>`
}

function moversTable(title: string, list: readonly Mover[]): string {
  if (list.length === 0) return `<h3>${escapeHtml(title)}</h3><p class="muted">None.</p>`
  const rows = list
    .map((m) => `<tr><td>${escapeHtml(m.keyword)}</td><td class="num">${rank(m.from)}</td><td class="num">${rank(m.to)}</td></tr>`)
    .join('')
  return `<h3>${escapeHtml(title)}</h3><table><thead><tr><th>Keyword</th><th>Before</th><th>Now</th></tr></thead><tbody>${rows}</tbody></table>`
}

function itemsList(items: readonly CompareItemLine[], empty: string): string {
  if (items.length === 0) return `<p class="muted">${escapeHtml(empty)}</p>`
  const entries = items
    .map(
      (i) =>
        `<li><strong>${escapeHtml(i.description)}</strong> <span class="verdict">Tier ${escapeHtml(i.tier)}</span>` +
        (i.status === 'in_progress' ? ' <span class="verdict">in progress</span>' : '') +
        `<div class="muted">${escapeHtml(i.action_type)}${i.page_url ? ` · ${escapeHtml(i.page_url)}` : ''}</div></li>`,
    )
    .join('')
  return `<ul class="actions">${entries}</ul>`
}

const STYLE = (accent: string) => `
:root{--accent:${accent}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#0f172a;background:#f8fafc}
main{max-width:960px;margin:0 auto;padding:32px 24px;background:#fff}
header{border-bottom:4px solid var(--accent);padding-bottom:16px;margin-bottom:24px}
.brand{font-size:22px;font-weight:700;color:var(--accent);letter-spacing:.02em}
h1{font-size:26px;margin:8px 0 4px}h2{font-size:19px;margin:32px 0 12px;color:var(--accent)}h3{font-size:16px;margin:20px 0 8px}
table{border-collapse:collapse;width:100%;margin:8px 0 16px;font-size:14px}
th,td{border-bottom:1px solid #e2e8f0;padding:6px 8px;text-align:left;vertical-align:top}
thead th{background:#f1f5f9;font-weight:600}
tr.section th{background:#f8fafc;color:var(--accent);font-weight:700}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
.muted{color:#64748b;font-weight:400}
.verdict{display:inline-block;padding:1px 8px;border-radius:10px;background:#e2e8f0;font-size:12px;white-space:nowrap}
.verdict.moved-up{background:#dcfce7;color:#166534}.verdict.moved-down{background:#fee2e2;color:#991b1b}
.kpis{display:flex;gap:16px;flex-wrap:wrap}.kpi{flex:1 1 200px;border:1px solid #e2e8f0;border-top:3px solid var(--accent);padding:12px 16px}
.kpi .value{font-size:28px;font-weight:700}
ul.actions{padding-left:20px}ul.actions li{margin:6px 0}
footer{margin-top:40px;font-size:12px;color:#64748b;border-top:1px solid #e2e8f0;padding-top:12px}
`

/** The whole page. */
export function renderCompareReportHtml(input: CompareReportInput): string {
  const accent = reportAccent(input.brand.accent_color)
  const { month: now, against: before } = input.summary
  const kpi = (label: string, value: string, was: string) =>
    `<div class="kpi"><div class="muted">${escapeHtml(label)}</div><div class="value">${value}</div><div class="muted">was ${was}</div></div>`
  return (
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(input.client.name)}: ${escapeHtml(input.month)} compared with ${escapeHtml(input.against_month)}</title>` +
    `<style>${STYLE(accent)}</style></head><body><main>` +
    `<header><div class="brand">${escapeHtml(input.brand.name)}</div>` +
    `<h1>Monthly comparison: ${escapeHtml(input.client.name)}</h1>` +
    `<div class="muted">${escapeHtml(input.month)} compared with ${escapeHtml(input.against_month)} · ${escapeHtml(input.client.website_url)}</div></header>` +
    `<section><h2>At a glance</h2><div class="kpis">` +
    kpi('Keywords in the top 10', integer(now.top_10), integer(before.top_10)) +
    kpi('Search clicks', integer(now.clicks), integer(before.clicks)) +
    kpi('AI presence', percent(now.ai_present, now.ai_answers), percent(before.ai_present, before.ai_answers)) +
    kpi(
      'Action items done',
      `${integer(now.items_done)} / ${integer(now.items_planned)}`,
      `${integer(before.items_done)} / ${integer(before.items_planned)}`,
    ) +
    `</div></section>` +
    `<section><h2>Month against month</h2>${metricsTable(input)}</section>` +
    `<section><h2>Keywords that moved</h2>${moversTable('Up', input.movers.up)}${moversTable('Down', input.movers.down)}</section>` +
    `<section><h2>Work done in ${escapeHtml(input.month)}</h2>${itemsList(input.items.done, 'No action item was completed this month.')}</section>` +
    `<section><h2>Still open</h2>${itemsList(input.items.open, 'Nothing left open this month.')}</section>` +
    `<footer>Prepared by ${escapeHtml(input.brand.name)} · generated ${escapeHtml(input.generated_at)} · positions are each keyword's best on its latest check of the month; Search Console numbers cover the days a completed capture holds.</footer>` +
    '</main></body></html>\n'
  )
}
