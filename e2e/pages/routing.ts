import { expect, type Page } from '@playwright/test';

/** Locators and actions of the Chat view's routing preview, Settings and Activity (page module). */
export class RoutingPage {
  constructor(readonly page: Page) {}

  async open(url: string, view: 'chat' | 'settings' | 'activity' = 'chat') {
    await this.page.goto(`${url}#${view}`);
    await expect(this.page.locator('html[data-app-state="ready"]')).toBeAttached();
  }

  nav = (view: 'chat' | 'skills' | 'runs' | 'activity' | 'settings') => this.page.getByTestId(`nav-${view}`);

  composer = () => this.page.getByTestId('composer');
  panel = () => this.page.getByTestId('score-panel');
  candidates = () => this.page.getByTestId('candidate');
  candidate = (name: string) => this.page.locator(`[data-testid="candidate"][data-skill-name="${name}"]`);
  thresholdLine = () => this.page.getByTestId('threshold-line');
  primary = () => this.page.getByTestId('plan-primary');

  whyNotSearch = () => this.page.getByTestId('why-not-search');
  whyNotOption = (name: string) =>
    this.page.locator(`[data-testid="why-not-option"][data-skill-name="${name}"]`);
  whyNotResult = () => this.page.getByTestId('why-not-result');

  threshold = () => this.page.getByTestId('setting-threshold');
  weight = (factor: string) => this.page.getByTestId(`setting-weight-${factor}`);
  weightsSum = () => this.page.getByTestId('weights-sum');
  reset = () => this.page.getByTestId('settings-reset');

  /** Types like a person (one key at a time), so every keystroke goes through the live preview. */
  async type(text: string) {
    await this.composer().fill('');
    await this.composer().pressSequentially(text, { delay: 15 });
    await expect(this.panel()).toHaveAttribute('data-query', text.trim());
  }

  /** Waits until the panel shows `query` and every request behind it settled. */
  async settled(query: string) {
    await expect(this.panel()).toHaveAttribute('data-query', query);
  }

  async candidateNames(): Promise<string[]> {
    return this.candidates().evaluateAll((rows) =>
      rows.map((row) => row.getAttribute('data-skill-name') ?? ''),
    );
  }

  /** Records a route through the engine as a client would (`route.commit`), over the page's own socket URL. */
  async commitRoute(query: string): Promise<void> {
    await this.page.evaluate(async (q) => {
      const token = new URLSearchParams(location.search).get('token') ?? '';
      const socket = new WebSocket(`ws://${location.host}/rpc?token=${encodeURIComponent(token)}`);
      await new Promise<void>((resolve, reject) => {
        socket.onopen = () =>
          socket.send(
            JSON.stringify({
              type: 'request',
              id: 1,
              method: 'route.commit',
              input: { query: q, origin: 'api' },
            }),
          );
        socket.onmessage = (event) => {
          const message = JSON.parse(String(event.data)) as {
            type: string;
            ok?: boolean;
            error?: { message: string };
          };
          if (message.type !== 'response') return;
          socket.close();
          if (message.ok) resolve();
          else reject(new Error(message.error?.message));
        };
        socket.onerror = () => reject(new Error('socket error'));
      });
    }, query);
  }
}
