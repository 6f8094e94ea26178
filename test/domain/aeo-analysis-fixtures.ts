/**
 * Answers as the engines write them (markdown lists, bold names, headings, tables, citations), for the
 * analysis tests. The client is Acme Plumbing (acmeplumbing.com) in Austin, TX.
 */
import type { AnalysisClient, AnalysisInput, AnalysisQuestion } from '../../domain/aeo/analysis/analyze.js'

export const acme: AnalysisClient = {
  name: 'Acme Plumbing LLC',
  websiteUrl: 'https://www.acmeplumbing.com/',
  services: ['Drain cleaning', 'Water heater repair'],
  locations: ['Austin, TX', 'Round Rock, TX'],
}

export const bestOf: AnalysisQuestion = {
  prompt: 'best emergency plumber in Austin, TX',
  service: 'Drain cleaning',
  location: 'Austin, TX',
  kind: 'best-of',
}
export const costQ: AnalysisQuestion = {
  prompt: 'how much does drain cleaning cost in Austin',
  service: 'Drain cleaning',
  location: 'Austin, TX',
  kind: 'cost',
}

export const input = (
  answerText: string,
  citations: AnalysisInput['citations'] = [],
  question = bestOf,
  retrieved: AnalysisInput['retrieved'] = [],
): AnalysisInput => ({
  answerText,
  citations,
  retrieved,
  client: acme,
  question,
})

/** ChatGPT-style numbered list, the client first, with its own site cited. */
export const namedFirst = `Here are some of the best emergency plumbers in Austin, TX:

1. **Acme Plumbing** – Available 24/7 for emergencies, Acme Plumbing is known for fast response times and upfront pricing. Customers on Google praise their drain cleaning. [acmeplumbing.com](https://acmeplumbing.com/emergency)
2. **Radiant Plumbing & Air Conditioning** – A long-standing Austin company with thousands of 5-star reviews.
3. **S&D Plumbing** – Family-owned since 1977, offering same-day service across Central Texas.
4. **Reliant Plumbing** – Known for transparent pricing and a satisfaction guarantee.

**Tips for choosing:**
- **Check reviews:** Look at Google and Yelp ratings.
- **Ask about pricing:** Emergency calls often cost more after hours.

Acme Plumbing is a strong first call if you need someone tonight.`

export const namedFirstCitations = [
  { url: 'https://acmeplumbing.com/emergency', title: 'Emergency plumbing | Acme Plumbing' },
  {
    url: 'https://www.yelp.com/search?find_desc=emergency+plumber&find_loc=Austin%2C+TX',
    title: 'Top 10 Best Emergency Plumbers in Austin',
  },
  { url: 'https://www.radiantplumbing.com/', title: 'Radiant Plumbing & Air Conditioning' },
]

/** Claude-style headings per business, the client third and not cited. */
export const namedLater = `Austin has several well-reviewed plumbing companies that handle emergencies.

### Radiant Plumbing & Air Conditioning
Radiant is one of the most reviewed plumbers in Austin, with a 4.9-star average on Google. They offer 24/7 emergency service.

### Reliant Plumbing
Reliant is known for upfront pricing and fast dispatch.

### Acme Plumbing
A smaller local company that gets good marks for drain cleaning and water heater repair.

## What to look for
- Licensed and insured technicians
- Clear pricing before work starts

Sources: Yelp, Angi and local news coverage.`

export const namedLaterCitations = [
  { url: 'https://www.radiantplumbing.com/emergency-plumbing', title: 'Emergency Plumbing Austin | Radiant' },
  { url: 'https://www.angi.com/companylist/us/tx/austin/plumbing.htm', title: 'The 10 Best Plumbers in Austin, TX' },
  { url: 'https://www.yelp.com/biz/reliant-plumbing-austin', title: 'Reliant Plumbing - Yelp' },
  { url: 'https://www.statesman.com/story/news/2024/plumbers', title: 'Austin plumbers in demand' },
]

/** Gemini-style bullets with bold names; the client is absent. */
export const absent = `For emergency plumbing in Austin, TX, these companies are frequently recommended:

* **Radiant Plumbing & Air Conditioning:** Highly rated, offers 24/7 service and a large team.
* **S&D Plumbing:** Family-owned, known for honest estimates.
* **Abacus Plumbing, Air Conditioning & Electrical:** Serves the greater Austin area with around-the-clock availability.

**Things to consider:**
* **Response time:** Ask how quickly they can arrive.
* **Reviews:** Check recent reviews on Google and the BBB.`

export const absentCitations = [
  { url: 'https://www.bbb.org/us/tx/austin/category/plumber', title: 'Plumbers near Austin, TX | BBB' },
  { url: 'https://www.google.com/maps/search/plumber+austin', title: 'Google Maps' },
  { url: 'https://www.sdplumbing.com/', title: 'S&D Plumbing' },
  { url: 'https://www.statesman.com/story/news/2024/plumbers', title: 'Austin American-Statesman' },
]

/** Only the own site is cited; the answer names no business. */
export const onlyCited = `Drain cleaning in Austin typically costs between $150 and $450, depending on the severity of the clog and whether a camera inspection is needed. Hydro-jetting runs higher, often $350 to $600. Emergency and after-hours calls usually add a surcharge.`

export const onlyCitedCitations = [
  { url: 'https://acmeplumbing.com/drain-cleaning-cost', title: 'How much does drain cleaning cost?' },
  { url: 'https://www.homeguide.com/costs/drain-cleaning-cost', title: 'Drain cleaning cost' },
]

/** A markdown table of businesses (comparison answers), the client in the second row. */
export const table = `| Company | Best for | Google rating |
|---|---|---|
| Radiant Plumbing & Air Conditioning | Large jobs | 4.9 |
| Acme Plumbing | Drain cleaning | 4.8 |
| Reliant Plumbing | Upfront pricing | 4.8 |

All three are licensed in Texas.`

/** Plain prose (no lists or bold): names found in running text, the client third. */
export const prose = `When it comes to drain cleaning in Austin, Reliant Plumbing and Radiant Plumbing are often mentioned, while Acme Plumbing is a newer option. According to [Yelp](https://yelp.com/x), Reliant has the most reviews. Smith and Sons Plumbing also serves Round Rock.`

/** Perplexity-style: bold numbered names with ratings in parentheses, labels in bold, numbered citations. */
export const boldNumbered = `Based on reviews and local reputation, here are top options for emergency plumbing in Austin:

**1. Radiant Plumbing & Air Conditioning** (4.9★, 5,000+ Google reviews)
- **Why we like it:** 24/7 emergency dispatch, upfront flat-rate pricing [1]
- **Service area:** Austin, Round Rock, Cedar Park

**2. Acme Plumbing**
- **Why we like it:** Fast response and strong drain cleaning reviews [2]

**3. Mr. Rooter Plumbing of Austin**
- Franchise with 24/7 availability [3]

### Emergency Services to Expect
Most companies charge a trip fee.`
