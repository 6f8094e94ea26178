import { reportAccent } from '../../organizations/branding.js'
import type { Rate, RatePair, RatesSummary } from '../summary/summary.js'
import type { Proportion } from '../summary/wilson.js'

/**
 * The white-label monthly report as one self-contained HTML page: inline CSS, inline SVG, no script, and
 * no external fetch of any kind (a Content-Security-Policy of `default-src 'none'` says so to the browser
 * too), so it renders the same offline, in a mail attachment or years later.
 *
 * The logo: a page that fetches nothing cannot show a remote image, and embedding one would mean fetching
 * it at filing time. So the brand shows as a wordmark (the brand name in the accent color) and the logo URL
 * is not placed in the page at all. Every string from data is HTML-escaped; colors are re-checked.
 */

export interface ReportSource {
  readonly domain: string
  readonly class: string
  /** Citations of the domain over the month's answers. */
  readonly citations: number
  /** Answers citing it. */
  readonly answers: number
}

export interface ReportItem {
  readonly tier: string
  readonly title: string
  readonly status: string
  readonly evidence: string
}

export interface TrendPoint {
  readonly month: string
  readonly presence: Proportion
  readonly named_first: Proportion
}

export interface ReportInput {
  readonly brand: { readonly name: string; readonly accent_color: string | null }
  readonly client: { readonly name: string; readonly website_url: string }
  readonly month: string
  /** When the page was rendered (ISO-8601), shown in the footer. */
  readonly generated_at: string
  readonly summary: RatesSummary
  /** Every month with captures, ascending; the chart shows the last 12. */
  readonly trend: readonly TrendPoint[]
  readonly sources: readonly ReportSource[]
  /** Open and in-progress tracker items. */
  readonly items: readonly ReportItem[]
}

const TIERS: readonly { tier: string; label: string }[] = [
  { tier: 'A', label: 'Tier A: website work (high impact)' },
  { tier: 'B', label: 'Tier B: website work' },
  { tier: 'C', label: 'Tier C: Google Business, directories and reviews' },
  { tier: 'X', label: 'Tier X: market-driven (tracked, not promised)' },
]

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`)
}

const percent = (value: number | null) => (value === null ? '–' : `${(value * 100).toFixed(1)}%`)

const interval = (p: Proportion) => (p.denominator === 0 ? 'no sample' : `${percent(p.ci95[0])} – ${percent(p.ci95[1])}`)

const serviceLabel = (service: string) => (service === '' ? 'No service' : service)

function rateCells(rate: Rate): string {
  const verdictClass = rate.verdict.replace(/\s+/g, '-')
  const before = rate.previous ? ` <span class="muted">(was ${percent(rate.previous.rate)})</span>` : ''
  return (
    `<td class="num">${percent(rate.rate)}${before}</td>` +
    `<td class="num">${rate.numerator} / ${rate.denominator}</td>` +
    `<td class="num">${interval(rate)}</td>` +
    `<td><span class="verdict ${escapeHtml(verdictClass)}">${escapeHtml(rate.verdict)}</span></td>`
  )
}

function ratesTable(rows: readonly { label: string; pair: RatePair }[]): string {
  const head =
    '<tr><th rowspan="2">Service</th><th colspan="4">Presence (named or own site cited)</th><th colspan="4">Named first</th></tr>' +
    '<tr><th>Rate</th><th>Answers</th><th>95% interval</th><th>vs. previous</th><th>Rate</th><th>Answers</th><th>95% interval</th><th>vs. previous</th></tr>'
  const body = rows
    .map(({ label, pair }) => `<tr><th scope="row">${escapeHtml(label)}</th>${rateCells(pair.presence)}${rateCells(pair.named_first)}</tr>`)
    .join('')
  return `<table class="rates"><thead>${head}</thead><tbody>${body}</tbody></table>`
}

/** Inline SVG: presence and named-first per month with the presence interval as a band; last 12 months. */
export function trendChart(points: readonly TrendPoint[], accent: string): string {
  const shown = points.slice(-12)
  const width = 640
  const height = 220
  const left = 44
  const right = 16
  const top = 12
  const bottom = 36
  const plotW = width - left - right
  const plotH = height - top - bottom
  const x = (i: number) => left + (shown.length === 1 ? plotW / 2 : (i * plotW) / (shown.length - 1))
  const y = (v: number) => top + plotH - v * plotH
  const fmt = (n: number) => n.toFixed(1)
  const line = (pick: (p: TrendPoint) => Proportion) =>
    shown
      .map((p, i) => ({ i, r: pick(p).rate }))
      .filter((p) => p.r !== null)
      .map((p) => `${fmt(x(p.i))},${fmt(y(p.r!))}`)
      .join(' ')
  const band = [
    ...shown.map((p, i) => `${fmt(x(i))},${fmt(y(p.presence.ci95[1]))}`),
    ...shown.map((p, i) => `${fmt(x(i))},${fmt(y(p.presence.ci95[0]))}`).reverse(),
  ].join(' ')
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (v) =>
        `<line x1="${left}" x2="${width - right}" y1="${fmt(y(v))}" y2="${fmt(y(v))}" class="grid"/><text x="${left - 6}" y="${fmt(y(v) + 4)}" text-anchor="end">${v * 100}%</text>`,
    )
    .join('')
  const labels = shown
    .map((p, i) => `<text x="${fmt(x(i))}" y="${height - 14}" text-anchor="middle">${escapeHtml(p.month)}</text>`)
    .join('')
  const dots = shown
    .map((p, i) =>
      p.presence.rate === null
        ? ''
        : `<circle cx="${fmt(x(i))}" cy="${fmt(y(p.presence.rate))}" r="3.5" fill="${accent}"><title>${escapeHtml(p.month)}: presence ${percent(p.presence.rate)} (${p.presence.numerator}/${p.presence.denominator})</title></circle>`,
    )
    .join('')
  return (
    `<svg viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="Presence and named-first rates by month">` +
    grid +
    `<polygon points="${band}" fill="${accent}" fill-opacity="0.12" stroke="none"/>` +
    `<polyline points="${line((p) => p.presence)}" fill="none" stroke="${accent}" stroke-width="2.5"/>` +
    `<polyline points="${line((p) => p.named_first)}" fill="none" stroke="#475569" stroke-width="2" stroke-dasharray="6 4"/>` +
    dots +
    labels +
    `</svg>` +
    `<p class="legend"><span class="swatch" style="background:${accent}"></span>Presence (shaded: 95% interval) <span class="swatch dashed"></span>Named first</p>`
  )
}

function shareOfVoiceSection(summary: RatesSummary): string {
  const sov = summary.share_of_voice
  if (sov.total_mentions === 0) return '<p class="muted">No business was named in this month\'s answers.</p>'
  const rows = [
    `<tr class="client"><th scope="row">This business</th><td class="num">${sov.client_mentions}</td><td class="num">${percent(sov.rate)}</td></tr>`,
    ...sov.competitors.map(
      (c) =>
        `<tr><th scope="row">${escapeHtml(c.name)}</th><td class="num">${c.mentions}</td><td class="num">${percent(c.share)}</td></tr>`,
    ),
  ].join('')
  return (
    `<p>Of ${sov.total_mentions} business mentions across the month's answers, ${percent(sov.rate)} named this business.</p>` +
    `<table><thead><tr><th>Business</th><th>Answers naming it</th><th>Share of voice</th></tr></thead><tbody>${rows}</tbody></table>`
  )
}

function sourcesSection(sources: readonly ReportSource[]): string {
  if (sources.length === 0) return '<p class="muted">No sources were cited this month.</p>'
  const rows = sources
    .map(
      (s) =>
        `<tr><td>${escapeHtml(s.domain)}</td><td>${escapeHtml(s.class)}</td><td class="num">${s.citations}</td><td class="num">${s.answers}</td></tr>`,
    )
    .join('')
  return `<table><thead><tr><th>Domain</th><th>Kind</th><th>Citations</th><th>Answers citing it</th></tr></thead><tbody>${rows}</tbody></table>`
}

function actionsSection(items: readonly ReportItem[]): string {
  if (items.length === 0) return '<p class="muted">No open actions.</p>'
  return TIERS.map(({ tier, label }) => {
    const list = items.filter((i) => i.tier === tier)
    if (list.length === 0) return ''
    const entries = list
      .map(
        (i) =>
          `<li><strong>${escapeHtml(i.title)}</strong>${i.status === 'in_progress' ? ' <span class="verdict">in progress</span>' : ''}` +
          (i.evidence ? `<div class="muted">${escapeHtml(i.evidence)}</div>` : '') +
          '</li>',
      )
      .join('')
    return `<h3>${escapeHtml(label)} <span class="muted">(${list.length})</span></h3><ul class="actions">${entries}</ul>`
  }).join('')
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
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
tr.overall th,tr.overall td,tr.client th,tr.client td{font-weight:700}
.muted{color:#64748b;font-weight:400}
.verdict{display:inline-block;padding:1px 8px;border-radius:10px;background:#e2e8f0;font-size:12px;white-space:nowrap}
.verdict.moved-up{background:#dcfce7;color:#166534}.verdict.moved-down{background:#fee2e2;color:#991b1b}
.kpis{display:flex;gap:16px;flex-wrap:wrap}.kpi{flex:1 1 200px;border:1px solid #e2e8f0;border-top:3px solid var(--accent);padding:12px 16px}
.kpi .value{font-size:28px;font-weight:700}
svg text{font-size:11px;fill:#475569}svg .grid{stroke:#e2e8f0;stroke-width:1}
.legend{font-size:13px;color:#475569}.swatch{display:inline-block;width:14px;height:4px;margin:0 6px 3px 12px;vertical-align:middle}
.swatch.dashed{background:repeating-linear-gradient(90deg,#475569 0 5px,transparent 5px 8px)}
ul.actions{padding-left:20px}ul.actions li{margin:6px 0}
footer{margin-top:40px;font-size:12px;color:#64748b;border-top:1px solid #e2e8f0;padding-top:12px}
`

/** The whole page. Pure: the same input gives the same bytes. */
export function renderReportHtml(input: ReportInput): string {
  const accent = reportAccent(input.brand.accent_color)
  const s = input.summary
  const rows = [{ label: 'All services', pair: s.overall }, ...s.services.map((row) => ({ label: serviceLabel(row.service), pair: row }))]
  const trend =
    input.trend.length >= 2
      ? trendChart(input.trend, accent)
      : '<p class="muted">The trend chart appears once two months have captures.</p>'
  const previous = s.previous_month ? `compared with ${escapeHtml(s.previous_month)}` : 'no earlier month to compare with'
  const kpi = (label: string, rate: Rate) =>
    `<div class="kpi"><div class="muted">${escapeHtml(label)}</div><div class="value">${percent(rate.rate)}</div>` +
    `<div class="muted">${rate.numerator} of ${rate.denominator} answers · 95% interval ${interval(rate)}</div>` +
    `<div><span class="verdict ${escapeHtml(rate.verdict.replace(/\s+/g, '-'))}">${escapeHtml(rate.verdict)}</span></div></div>`
  return (
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(input.client.name)}: AI Visibility report, ${escapeHtml(input.month)}</title>` +
    `<style>${STYLE(accent)}</style></head><body><main>` +
    `<header><div class="brand">${escapeHtml(input.brand.name)}</div>` +
    `<h1>AI Visibility report: ${escapeHtml(input.client.name)}</h1>` +
    `<div class="muted">${escapeHtml(input.month)} · ${s.captures} answers analyzed · ${previous} · ${escapeHtml(input.client.website_url)}</div></header>` +
    `<section><h2>This month</h2><div class="kpis">${kpi('Presence', s.overall.presence)}${kpi('Named first', s.overall.named_first)}` +
    `<div class="kpi"><div class="muted">Share of voice</div><div class="value">${percent(s.share_of_voice.rate)}</div>` +
    `<div class="muted">${s.share_of_voice.client_mentions} of ${s.share_of_voice.total_mentions} business mentions</div></div></div>` +
    '<p class="muted">A change is called "moved" only when this month\'s 95% interval and the previous month\'s do not overlap; otherwise it is within sampling noise.</p></section>' +
    `<section><h2>Rates by service</h2>${ratesTable(rows).replace('<tbody><tr>', '<tbody><tr class="overall">')}</section>` +
    `<section><h2>Trend</h2>${trend}</section>` +
    `<section><h2>Share of voice</h2>${shareOfVoiceSection(s)}</section>` +
    `<section><h2>Sources the engines cited</h2>${sourcesSection(input.sources)}</section>` +
    `<section><h2>Action list</h2>${actionsSection(input.items)}</section>` +
    `<footer>Prepared by ${escapeHtml(input.brand.name)} · generated ${escapeHtml(input.generated_at)} · rates are shares of sampled AI answers with 95% Wilson score intervals.</footer>` +
    '</main></body></html>\n'
  )
}
