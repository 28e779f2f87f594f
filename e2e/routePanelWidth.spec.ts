import { expect, test } from './fixtures';
import { ChatPage } from './pages/chat';
import { RoutingPage } from './pages/routing';
import { clippedPlaceholders, clippedText, shots, watchConsole } from './support';

// The route panel beside the chat, at a 900 px window (half a laptop screen) and at 1400 px:
// the primary ("none — plain chat" included), candidate names, reasons and what matched are read
// whole, wrapped where they do not fit, never cut to "…".

const skill = (name: string, description: string, triggers: string[]) => ({
  [`${name}/SKILL.md`]: `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nDo it.\n`,
  [`${name}/skill.yaml`]: `spec:\n  type: direct\ntriggers:\n${triggers.map((t) => `  - ${t}`).join('\n')}\n`,
});

test.use({
  seedFiles: {
    ...skill(
      'quarterly-expense-report-consolidator',
      'Consolidates quarterly expense reports from receipts and invoices into one spreadsheet. Use when the user asks for an expense report.',
      ['expense report'],
    ),
    ...skill('expense-report', 'Builds an expense report from receipts. Use for expense reports.', [
      'expense report',
      'receipts',
    ]),
  },
});

for (const width of [900, 1400]) {
  test(`at ${width} px the route panel shows the primary, names, reasons and matches whole`, async ({
    page,
    workspace,
  }, testInfo) => {
    const problems = watchConsole(page);
    await page.setViewportSize({ width, height: 1000 });
    const chat = new ChatPage(page);
    await chat.open(workspace.url);
    const routing = new RoutingPage(page);
    const panel = routing.panel();

    // The boxes' hints read whole before anything is typed (the search box over the conversations).
    expect(await clippedPlaceholders(page)).toEqual([]);

    await routing.type('hello there');
    await expect(routing.primary()).toHaveText('none — plain chat');
    expect(await clippedText(panel)).toEqual([]);
    await shots(page, testInfo, `route-plain-${width}`);

    await routing.type('consolidate the quarterly expense report from these receipts');
    await expect(routing.primary()).toHaveText('quarterly-expense-report-consolidator');
    await shots(page, testInfo, `route-skill-${width}`);
    for (const row of await routing.candidates().all()) await row.locator('.candidate__head').click();
    expect(await clippedText(panel)).toEqual([]);

    // The "why not" picker lists every skill by its whole name.
    await page.getByTestId('why-not-search').click();
    await expect(page.getByTestId('why-not-option').first()).toBeVisible();
    expect(await clippedText(page.locator('.why-not'))).toEqual([]);
    expect(problems).toEqual([]);
  });
}
