import { expect, type Page } from '@playwright/test';

/** Locators and actions of the Skills view (STYLE: page modules for locators). */
export class SkillsPage {
  constructor(readonly page: Page) {}

  async open(url: string) {
    await this.page.goto(url);
    await expect(this.page.locator('html[data-app-state="ready"]')).toBeAttached();
  }

  search = () => this.page.getByTestId('skill-search');
  list = () => this.page.getByTestId('skill-list');
  rows = () => this.page.getByTestId('skill-row');
  row = (name: string) => this.page.locator(`[data-testid="skill-row"][data-skill-name="${name}"]`);
  count = () => this.page.getByTestId('skill-count');
  detail = () => this.page.getByTestId('skill-detail');
  /** What the opened skill's instructions ask the agent to do, and the header's danger badge. */
  instructions = () => this.page.getByTestId('detail-instructions');
  findings = () => this.instructions().getByTestId('instruction-finding');
  dangerBadge = () => this.page.getByTestId('instructions-danger-badge');
  tab = (name: 'overview' | 'metadata' | 'files' | 'problems' | 'availability' | 'evals') =>
    this.page.getByTestId(`detail-tab-${name}`);

  /** Opens the app on the Skills view with one skill's detail on one of its tabs. */
  async openSkill(url: string, name: string, tab: Parameters<SkillsPage['tab']>[0]) {
    await this.open(url);
    await this.row(name).click();
    await this.tab(tab).click();
  }

  async rowNames(): Promise<string[]> {
    return this.rows().evaluateAll((rows) => rows.map((row) => row.getAttribute('data-skill-name') ?? ''));
  }
}
