import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../testing/fixtures';
import { analyzeQuery } from './analyze';
import { entityGroups } from './entities';
import type { RoutingIndex } from './lexicon';
import { route } from './router';
import { catalogOf, defaultConfig, indexOf, readyContext, skillMd } from './testHelpers';

const kinds = (text: string) => entityGroups(text).groups.map((g) => g.text.replace('entity:', ''));

describe('things whose shape says what they are', () => {
  it('recognizes IP addresses, Ethereum addresses and hashes, cron lines', () => {
    expect(kinds('where in the world is 203.0.113.9?')).toEqual(['IP address']);
    expect(kinds('block 10.0.0.0/8 on the firewall')).toEqual(['IP address']);
    expect(kinds('ping 2001:db8::1 from here')).toEqual(['IPv6 address']);
    expect(kinds('who deployed 0x5564886ca2C518d1964E5FCea4f423b41Db9F561?')).toEqual(['Ethereum address']);
    expect(kinds(`what did 0x${'ab12'.repeat(16)} do`)).toEqual(['transaction hash']);
    expect(kinds('查一下以太坊合约0xBB9bc244D798123fDe783fCc1C72d3Bb8C189413是谁部署的')).toEqual([
      'Ethereum address',
    ]);
    expect(kinds('what does 0 7 * * 1-5 mean')).toEqual(['cron expression']);
    expect(kinds('run it */15 * * * * please')).toEqual(['cron expression']);
    expect(kinds('is $NVDA a buy right now?')).toEqual(['stock ticker']);
    expect(kinds('$BRK.B 现在能买吗')).toEqual(['stock ticker']);
    expect(kinds('subscriber count for r/selfhosted and r/homelab?')).toEqual(['subreddit']);
    expect(kinds("What's within 300 m of 48.8566, 2.3522?")).toEqual(['coordinates']);
    expect(kinds('top posts on /r/rust this week')).toEqual(['subreddit']);
    expect(kinds('Is UA1523 out of Denver still on time tonight?')).toEqual(['flight number']);
    expect(kinds('LH 400 航班延误了吗')).toEqual(['flight number']);
    expect(kinds('Move PAY-482 to In Review and log 3h on it')).toEqual(['issue key']);
  });

  it('leaves look-alikes alone: versions, times, short hex, plain numbers', () => {
    for (const text of [
      'upgrade to v1.2.3.4',
      'section 1.2.300.4 of the spec',
      'meet at 12:30:45',
      'the colour 0x123456',
      'ship 1 2 3 4 5 boxes',
      'release 3.12.1',
      'call 010.1.1.1',
      'it costs $5',
      '$weather Berlin',
      'export $PATH first',
      'copy it to dir/r/x',
      'pi is 3.14159, e is 2.71828 and 200.123, 1.000 is no place',
      'the four r/w/x bits',
      // A flight number's shape without a flight's words: a GPU, a part, a standard.
      'is the RX7900 worth it over the 4080?',
      'my MX500 SSD is rated IP68',
      // An issue key's shape in a standard's or a version's name.
      'is CVE-2024-3094 patched in our images?',
      'format the date as ISO-8601 and compare GPT-4 with COVID-19 data',
    ])
      expect(kinds(text), text).toEqual([]);
  });

  it('reads the thing as one word of the query, its digits as none', () => {
    const groups = analyzeQuery('where in the world is 203.0.113.9?');
    expect(groups.map((g) => g.text)).toEqual(['world', 'entity:IP address']);
    expect(groups[1].surface).toBe('203.0.113.9 (IP address)');
    expect(groups[1].variants.map((v) => [v.term, v.via])).toEqual([['ip', 'entity']]);
  });
});

describe('routing a pasted thing', () => {
  let index: RoutingIndex;
  beforeAll(async () => {
    const dir = tempDir('skilldeck-entities-');
    writeTree(dir, {
      'ip-lookup/SKILL.md': skillMd(
        'ip-lookup',
        'Geolocate IP addresses: city, country and network owner of an IP.',
      ),
      'contract-history/SKILL.md': skillMd(
        'contract-history',
        'Who deployed an Ethereum contract, when, and what it did.',
      ),
      'weather/SKILL.md': skillMd('weather', 'Current weather and forecasts for a city.'),
      'flights/SKILL.md': skillMd(
        'flights',
        'Track flight status, departures, arrivals and delays by flight number.',
      ),
      'airline-miles/SKILL.md': skillMd('airline-miles', 'Check airline miles balances and on-time credits.'),
      'stock-quotes/SKILL.md': skillMd(
        'stock-quotes',
        'Real-time stock quotes, charts and news for a ticker.',
      ),
    });
    index = indexOf(await catalogOf(dir));
  });
  const result = (query: string) => route(index, query, defaultConfig(), readyContext());

  it('routes an IP address to the skill for IP addresses, and says why', () => {
    const r = result('where in the world is 203.0.113.9?');
    expect(r.plan.primary).toBe('ip-lookup');
    const [top] = r.candidates;
    const evidence = top?.evidence?.find((e) => e.kind === 'entity');
    expect(evidence).toMatchObject({ query: '203.0.113.9 (IP address)', matched: 'ip' });
    expect(top?.reason).toContain('recognized 203.0.113.9 (IP address) → ip');
  });

  it('routes an Ethereum address to the contract skill, in Chinese too; alone it is no request', () => {
    const address = '0x5564886ca2C518d1964E5FCea4f423b41Db9F561';
    expect(result(`who deployed ${address}?`).plan.primary).toBe('contract-history');
    expect(result(`这个${address}是谁部署的`).plan.primary).toBe('contract-history');
    expect(result(address).plan.primary).toBeNull();
    expect(result(address).candidates[0]?.name).toBe('contract-history');
  });

  it('routes a flight number to the flight-status skill', () => {
    const r = result('Is UA1523 out of Denver still on time tonight? It was showing a 40 min delay earlier.');
    expect(r.plan.primary).toBe('flights');
    expect(r.candidates[0]?.reason).toContain('recognized UA1523 (flight number)');
  });

  it('does not make a version number an IP lookup', () => {
    expect(
      result('is the forecast app at version 3.12.1 yet').candidates.some((c) => c.name === 'ip-lookup'),
    ).toBe(false);
  });

  it('reads $TSLA as a ticker and $5 as an amount, not as skills to force', () => {
    const r = result('is $NVDA a buy right now?');
    expect(r.plan.primary).toBe('stock-quotes');
    expect(r.plan.routing_reason).not.toMatch(/No routable skill named/);
    expect(result('send $5 to Bob for lunch').plan.routing_reason).not.toMatch(/No routable skill named/);
    expect(result('$weather Berlin').candidates[0]).toMatchObject({ name: 'weather', source: 'forced' });
    expect(result('$tsla please').plan.routing_reason).toMatch(/No routable skill named “tsla”/);
  });
});
