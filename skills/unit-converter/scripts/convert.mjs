#!/usr/bin/env node
// Convert between units of length, mass, volume, area, speed, time, data, energy,
// pressure and temperature, including common Chinese units (斤, 两, 里, 亩, 尺 ...).
//
// INPUT_JSON: { "value": 5, "from": "mi", "to": "km", "precision": 6 }
//         or: { "task": "convert 5 miles to km" } / { "task": "3斤是多少公斤" }
// Without a target unit, the value is shown in the common units of its kind.
// Exit codes: 0 ok, 1 bad input (unknown unit, incompatible kinds, no number).

function fail(message) {
  process.stderr.write(`unit-converter: ${message}\n`);
  process.exit(1);
}

// kind -> [factor to the base unit, aliases...]; temperature is handled separately.
const TABLE = {
  length: [
    [1, 'm', 'meter', 'meters', 'metre', 'metres', '米'],
    [1000, 'km', 'kilometer', 'kilometers', 'kilometre', 'kilometres', '公里', '千米'],
    [0.01, 'cm', 'centimeter', 'centimeters', 'centimetre', 'centimetres', '厘米'],
    [0.001, 'mm', 'millimeter', 'millimeters', 'millimetre', 'millimetres', '毫米'],
    [1e-6, 'µm', 'um', 'micrometer', 'micrometers', 'micron', 'microns', '微米'],
    [1e-9, 'nm', 'nanometer', 'nanometers', '纳米'],
    [1609.344, 'mi', 'mile', 'miles', '英里'],
    [0.9144, 'yd', 'yard', 'yards', '码'],
    [0.3048, 'ft', 'foot', 'feet', "'", '英尺'],
    [0.0254, 'in', 'inch', 'inches', '"', '英寸'],
    [1852, 'nmi', 'nautical mile', 'nautical miles', '海里'],
    [500, '里', 'li'],
    [10 / 3, '丈'],
    [1 / 3, '尺', 'chi'],
    [1 / 30, '寸', 'cun'],
  ],
  mass: [
    [1, 'kg', 'kilogram', 'kilograms', 'kilo', 'kilos', '公斤', '千克'],
    [0.001, 'g', 'gram', 'grams', '克'],
    [1e-6, 'mg', 'milligram', 'milligrams', '毫克'],
    [1000, 't', 'tonne', 'tonnes', 'metric ton', 'metric tons', '吨'],
    [0.45359237, 'lb', 'lbs', 'pound', 'pounds', '磅'],
    [0.028349523125, 'oz', 'ounce', 'ounces', '盎司'],
    [6.35029318, 'st', 'stone', 'stones'],
    [0.5, '斤', 'jin'],
    [0.05, '两', 'liang'],
  ],
  volume: [
    [1, 'l', 'liter', 'liters', 'litre', 'litres', '升'],
    [0.001, 'ml', 'milliliter', 'milliliters', 'millilitre', 'millilitres', 'cc', '毫升'],
    [1000, 'm3', 'm³', 'cubic meter', 'cubic meters', '立方米'],
    [0.001, 'cm3', 'cm³'],
    [3.785411784, 'gal', 'gallon', 'gallons', 'us gallon', 'us gallons', '加仑'],
    [4.54609, 'imperial gallon', 'imperial gallons', 'uk gallon'],
    [0.946352946, 'qt', 'quart', 'quarts'],
    [0.473176473, 'pt', 'pint', 'pints'],
    [0.2365882365, 'cup', 'cups'],
    [0.0295735295625, 'fl oz', 'fluid ounce', 'fluid ounces'],
    [0.01478676478125, 'tbsp', 'tablespoon', 'tablespoons'],
    [0.00492892159375, 'tsp', 'teaspoon', 'teaspoons'],
  ],
  area: [
    [1, 'm2', 'm²', 'sq m', 'square meter', 'square meters', 'square metre', 'square metres', '平方米'],
    [1e6, 'km2', 'km²', 'sq km', 'square kilometer', 'square kilometers', '平方公里'],
    [1e-4, 'cm2', 'cm²', 'square centimeter', 'square centimeters', '平方厘米'],
    [1e4, 'ha', 'hectare', 'hectares', '公顷'],
    [4046.8564224, 'acre', 'acres', '英亩'],
    [0.09290304, 'ft2', 'ft²', 'sq ft', 'square foot', 'square feet', '平方英尺'],
    [2589988.110336, 'mi2', 'mi²', 'sq mi', 'square mile', 'square miles'],
    [2000 / 3, '亩', 'mu'],
  ],
  speed: [
    [1, 'm/s', 'mps', 'meters per second', '米每秒'],
    [1 / 3.6, 'km/h', 'kmh', 'kph', 'kilometers per hour', '公里每小时'],
    [0.44704, 'mph', 'mi/h', 'miles per hour'],
    [1852 / 3600, 'kn', 'knot', 'knots', '节'],
    [0.3048, 'ft/s', 'fps', 'feet per second'],
  ],
  time: [
    [1, 's', 'sec', 'secs', 'second', 'seconds', '秒'],
    [0.001, 'ms', 'millisecond', 'milliseconds', '毫秒'],
    [60, 'min', 'mins', 'minute', 'minutes', '分钟'],
    [3600, 'h', 'hr', 'hrs', 'hour', 'hours', '小时'],
    [86400, 'd', 'day', 'days', '天'],
    [604800, 'wk', 'week', 'weeks', '周', '星期'],
    [31557600, 'yr', 'year', 'years', '年'],
  ],
  data: [
    [1, 'B', 'byte', 'bytes', '字节'],
    [0.125, 'bit', 'bits', 'b'],
    [1e3, 'kB', 'KB', 'kilobyte', 'kilobytes'],
    [1e6, 'MB', 'megabyte', 'megabytes'],
    [1e9, 'GB', 'gigabyte', 'gigabytes'],
    [1e12, 'TB', 'terabyte', 'terabytes'],
    [1024, 'KiB', 'kibibyte', 'kibibytes'],
    [1024 ** 2, 'MiB', 'mebibyte', 'mebibytes'],
    [1024 ** 3, 'GiB', 'gibibyte', 'gibibytes'],
    [1024 ** 4, 'TiB', 'tebibyte', 'tebibytes'],
    [125, 'kbit', 'Kb', 'kilobit', 'kilobits'],
    [125000, 'Mbit', 'Mb', 'megabit', 'megabits'],
    [125000000, 'Gbit', 'Gb', 'gigabit', 'gigabits'],
  ],
  energy: [
    [1, 'J', 'joule', 'joules', '焦耳'],
    [1000, 'kJ', 'kilojoule', 'kilojoules', '千焦'],
    [4.184, 'cal', 'calorie', 'calories', '卡'],
    [4184, 'kcal', 'kilocalorie', 'kilocalories', 'Cal', '千卡', '大卡'],
    [3600, 'Wh', 'watt hour', 'watt hours'],
    [3.6e6, 'kWh', 'kilowatt hour', 'kilowatt hours', '度', '千瓦时'],
  ],
  pressure: [
    [1, 'Pa', 'pascal', 'pascals', '帕'],
    [1000, 'kPa', 'kilopascal', 'kilopascals', '千帕'],
    [1e5, 'bar', 'bars', '巴'],
    [101325, 'atm', 'atmosphere', 'atmospheres', '标准大气压'],
    [6894.757293168, 'psi'],
    [133.322387415, 'mmHg', 'torr', '毫米汞柱'],
  ],
};
const TEMPERATURE = {
  C: [
    'c',
    '°c',
    'celsius',
    'centigrade',
    'degc',
    'degrees c',
    'degrees celsius',
    '摄氏度',
    '摄氏',
    '攝氏度',
    '攝氏',
    '度c',
    '℃',
  ],
  F: [
    'f',
    '°f',
    'fahrenheit',
    'degf',
    'degrees f',
    'degrees fahrenheit',
    '华氏度',
    '华氏',
    '華氏度',
    '華氏',
    '℉',
  ],
  K: ['k', 'kelvin', 'kelvins', '开尔文', '开'],
};
const COMMON = {
  length: ['m', 'km', 'cm', 'mi', 'ft', 'in'],
  mass: ['kg', 'g', 'lb', 'oz', '斤'],
  volume: ['l', 'ml', 'gal', 'cup', 'fl oz'],
  area: ['m2', 'km2', 'ha', 'acre', 'ft2', '亩'],
  speed: ['m/s', 'km/h', 'mph', 'kn'],
  time: ['s', 'min', 'h', 'd', 'wk'],
  data: ['B', 'kB', 'MB', 'GB', 'KiB', 'MiB', 'GiB'],
  energy: ['J', 'kJ', 'kcal', 'kWh'],
  pressure: ['kPa', 'bar', 'atm', 'psi'],
  temperature: ['C', 'F', 'K'],
};

// Exact spellings first (so MB and Mb differ), then case-insensitive.
const exact = new Map();
const folded = new Map();
for (const [kind, rows] of Object.entries(TABLE)) {
  for (const [factor, ...aliases] of rows) {
    const unit = { kind, factor, symbol: aliases[0] };
    for (const alias of aliases) {
      exact.set(alias, unit);
      if (!folded.has(alias.toLowerCase())) folded.set(alias.toLowerCase(), unit);
    }
  }
}
for (const [symbol, aliases] of Object.entries(TEMPERATURE)) {
  const unit = { kind: 'temperature', symbol: `°${symbol}`.replace('°K', 'K'), temp: symbol };
  exact.set(symbol, unit);
  for (const alias of aliases) folded.set(alias, unit);
}

function lookup(raw) {
  const name = String(raw)
    .trim()
    .replace(/^(degrees?|deg)\s+(?=[cfk]$)/i, '')
    .replace(/^(square|sq\.?)\s+/i, (m) => (m.toLowerCase().startsWith('sq') ? 'sq ' : 'square '))
    .replace(/[.。?？!！,，]+$/, '')
    .replace(/\s+/g, ' ');
  const unit = exact.get(name) ?? folded.get(name.toLowerCase());
  if (unit) return unit;
  if (name.toLowerCase().endsWith('s')) return folded.get(name.toLowerCase().slice(0, -1));
  return undefined;
}

function toKelvin(v, t) {
  if (t === 'C') return v + 273.15;
  if (t === 'F') return ((v - 32) * 5) / 9 + 273.15;
  return v;
}

function fromKelvin(k, t) {
  if (t === 'C') return k - 273.15;
  if (t === 'F') return ((k - 273.15) * 9) / 5 + 32;
  return k;
}

function convert(value, from, to) {
  if (from.kind !== to.kind)
    fail(`cannot convert ${from.kind} (${from.symbol}) to ${to.kind} (${to.symbol}).`);
  if (from.kind === 'temperature') return fromKelvin(toKelvin(value, from.temp), to.temp);
  return (value * from.factor) / to.factor;
}

function format(x, precision) {
  if (x === 0) return '0';
  const abs = Math.abs(x);
  if (abs >= 1e15 || abs < 1e-6) return x.toExponential(precision - 1).replace(/\.?0+e/, 'e');
  const s = Number(x.toPrecision(precision)).toString();
  const [int, frac] = s.split('.');
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac ? `.${frac}` : '');
}

function parseNumber(raw) {
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw !== 'string') return NaN;
  const s = raw.trim().replace(/,(?=\d{3}\b)/g, '');
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s) ? Number(s) : NaN;
}

/** Reads "5 miles to km", "how many km is 5 miles", "3斤是多少公斤", "100°F in C". */
function parseTask(task) {
  // Asides, emoji and a closing "please" / "thanks" are not part of a unit ("5 miles in km, please 🙂").
  const text = task
    .replace(/[（(][^)）]*[)）]/g, ' ')
    .replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu, ' ')
    .replace(/[,，]?\s*\b(?:please|pls|thanks|thank you)\b[\s.!。！]*$/i, '')
    .replace(/[,，]?\s*(?:谢谢|谢了|多谢)[\s.!。！]*$/, '')
    .trim();
  // English separators must be whole words ("5 minutes to h" is not "5 m" + "inutes ...").
  const sep =
    '(?:\\s+(?:to|in|into|as|in terms of)\\s+|\\s*(?:->|→|=|是多少|等于多少|等于|换算成|换算为|转换成|转换为|转成|合多少|折合|合)\\s*)';
  const num = '([-+]?(?:\\d{1,3}(?:,\\d{3})+|\\d+)?(?:\\.\\d+)?(?:e[-+]?\\d+)?)';
  let m = new RegExp(`how many\\s+(.+?)\\s+(?:is|are|in|per)\\s+${num}\\s*(.+?)[?？.。]*$`, 'i').exec(text);
  if (m) return { value: m[2] || '1', from: m[2] ? m[3] : m[3].replace(/^(a|an|one)\s+/i, ''), to: m[1] };
  m = new RegExp(`${num}\\s*([^\\d\\s].*?)${sep}(.+?)[?？.。!！]*$`, 'i').exec(
    text.replace(/^.*?(?=[-+]?\d)/, ''),
  );
  if (m && m[1]) return { value: m[1], from: m[2], to: m[3] };
  m = new RegExp(`${num}\\s*([^\\d].*?)[?？.。!！]*$`, 'i').exec(text.replace(/^.*?(?=[-+]?\d)/, ''));
  if (m && m[1]) return { value: m[1], from: m[2], to: undefined };
  return undefined;
}

function main() {
  const raw = (process.env.INPUT_JSON ?? '').trim();
  if (!raw)
    fail('INPUT_JSON is empty. Pass {"value": 5, "from": "mi", "to": "km"} or {"task": "5 miles to km"}.');
  let data;
  try {
    data = JSON.parse(raw);
  } catch (err) {
    fail(`INPUT_JSON is not valid JSON (${err.message}).`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    fail('INPUT_JSON must be a JSON object.');

  let request = { value: data.value, from: data.from, to: data.to };
  if (request.value === undefined || request.from === undefined) {
    const parsed = typeof data.task === 'string' ? parseTask(data.task) : undefined;
    if (!parsed)
      fail('no conversion found. Pass "value" and "from" (and "to"), or a task like "5 miles to km".');
    request = { ...parsed, to: request.to ?? parsed.to };
  }
  const precision = data.precision ?? 6;
  if (!Number.isInteger(precision) || precision < 1 || precision > 15) fail('"precision" must be 1 to 15.');

  const value = parseNumber(request.value);
  if (Number.isNaN(value)) fail(`"${request.value}" is not a number.`);
  const from = lookup(request.from);
  if (!from) fail(`unknown unit "${request.from}". Known kinds: ${Object.keys(COMMON).join(', ')}.`);
  if (from.kind === 'temperature' && toKelvin(value, from.temp) < 0) fail('that is below absolute zero.');

  if (request.to !== undefined && String(request.to).trim()) {
    const to = lookup(request.to);
    if (!to) fail(`unknown unit "${request.to}". Known kinds: ${Object.keys(COMMON).join(', ')}.`);
    const result = convert(value, from, to);
    process.stdout.write(
      `**${format(value, 15)} ${from.symbol} = ${format(result, precision)} ${to.symbol}**\n`,
    );
    if (from.kind !== 'temperature' && from.symbol !== to.symbol && value !== 1) {
      process.stdout.write(
        `\n(1 ${from.symbol} = ${format(convert(1, from, to), precision)} ${to.symbol})\n`,
      );
    }
    return;
  }

  const rows = COMMON[from.kind]
    .map((s) => lookup(s))
    .filter((u) => u.symbol !== from.symbol)
    .map((u) => `| ${format(convert(value, from, u), precision)} | ${u.symbol} |`);
  process.stdout.write(
    [
      `**${format(value, 15)} ${from.symbol}** (${from.kind}) is:`,
      '',
      '| value | unit |',
      '| ---: | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
}

main();
