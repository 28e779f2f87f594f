import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/** Console errors and page errors fail the test: the app must never cause them. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** The same screen in light and dark, attached to the report to be looked at. */
export async function shots(page: Page, testInfo: TestInfo, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const file = testInfo.outputPath(`${name}-${scheme}.png`);
    await page.screenshot({ path: file });
    await testInfo.attach(`${name}-${scheme}`, { path: file, contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Nothing pokes out of the window sideways: the page does not scroll horizontally and each
 * element given ends inside the viewport (the Electron window may be as small as 720×480).
 */
export async function fitsWindow(page: Page, ...elements: Locator[]) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  for (const element of elements) {
    const box = await element.boundingBox();
    expect(box ? box.x + box.width : Infinity).toBeLessThanOrEqual(width);
  }
}

/**
 * What a narrow window breaks, as sentences: the page scrolling sideways, an element running
 * out of the window, a control cut off by (or scrolled sideways inside) a box, a control's
 * label spilling out of its border, a block's text running out of it. Monaco draws its own.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      problems.push(`the page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    const width = root.clientWidth;
    const name = (el: Element) => {
      const id = el.getAttribute('data-testid') ?? el.getAttribute('aria-label');
      const text = (el.textContent ?? '').trim().slice(0, 30);
      return `${el.tagName.toLowerCase()}${id ? `[${id}]` : ''}.${[...el.classList].join('.')} "${text}"`;
    };
    const controls = 'button, a[href], input, select, textarea, summary, [role="tab"]';
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('.monaco-editor, .monaco-diff-editor, .monaco-aria-container, [aria-hidden="true"]'))
        continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // Visually hidden text for screen readers is 1 px and may sit off screen on purpose.
      if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden') continue;
      if (style.position === 'fixed' && Number(style.opacity) === 0) continue;
      if (box.right > width + 1 || box.left < -1) {
        problems.push(
          `${name(el)} runs out of the window (${Math.round(box.left)}–${Math.round(box.right)})`,
        );
        continue;
      }
      if (el.matches(controls)) {
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
          const clip = getComputedStyle(up).overflowX;
          if (clip === 'visible') continue;
          const outer = up.getBoundingClientRect();
          if (box.right > outer.right + 1 || box.left < outer.left - 1) {
            problems.push(`${name(el)} is cut off sideways by ${name(up)} (${clip})`);
            break;
          }
        }
        const spills = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
        if (spills && style.overflow === 'visible' && el.tagName !== 'INPUT' && el.tagName !== 'TEXTAREA')
          problems.push(`${name(el)}: its label spills out of its box`);
        continue;
      }
      const block = !style.display.startsWith('inline') && style.display !== 'contents';
      if (block && style.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1)
        problems.push(`${name(el)}: its content runs ${el.scrollWidth - el.clientWidth} px out of it`);
    }
    return problems.slice(0, 20);
  });
}

/**
 * A control one can see and press: scrolled into view, wholly inside the window, and the
 * topmost element at its centre (nothing covers it).
 */
export async function expectReachable(page: Page, control: Locator) {
  await control.scrollIntoViewIfNeeded();
  const size = page.viewportSize() ?? { width: 0, height: 0 };
  const box = await control.boundingBox();
  expect.soft(box, 'the control is on screen').not.toBeNull();
  if (!box) return;
  // Sub-pixel layout: a box may end a fraction of a pixel past the edge it is flush with.
  const inside = [
    box.x + 1 >= 0,
    box.y + 1 >= 0,
    box.x + box.width <= size.width + 1,
    box.y + box.height <= size.height + 1,
  ];
  expect.soft(inside, `${control} lies inside the window`).toEqual([true, true, true, true]);
  const onTop = await control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (el === hit || el.contains(hit));
  });
  expect.soft(onTop, `nothing covers ${control}`).toBe(true);
}

/**
 * Words cut short inside `scope`, as sentences: an element whose own text is clipped by its box
 * (an ellipsis, overflow hidden, a line clamp) unless a title on it or around it holds that text.
 */
export async function clippedText(scope: Locator): Promise<string[]> {
  await scope
    .page()
    .evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return scope.evaluate((root) => {
    const problems: string[] = [];
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (!(el instanceof HTMLElement) || el.closest('[aria-hidden="true"]')) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (!own) continue;
      const text = (el.textContent ?? '').trim();
      const cutX = style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1;
      const cutY = style.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1;
      if (!cutX && !cutY) continue;
      if (el.closest('[title]')?.getAttribute('title')?.includes(text)) continue;
      problems.push(
        `"${text.slice(0, 60)}" (${el.tagName.toLowerCase()}.${[...el.classList].join('.')}) is cut short`,
      );
    }
    return problems;
  });
}

/**
 * One-line boxes (inputs) on the page whose placeholder is wider than the box, so it shows cut:
 * the hint a placeholder gives is lost when it reads "Search convers…".
 */
export async function clippedPlaceholders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return ['no canvas to measure with'];
    const cut: string[] = [];
    for (const input of document.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
      if (input.value || input.getClientRects().length === 0) continue;
      const style = getComputedStyle(input);
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (context.measureText(input.placeholder).width > room + 1) cut.push(`"${input.placeholder}" is cut`);
    }
    return cut;
  });
}
