import { expect, type Locator, type Page } from '@playwright/test';

/** Locators and actions of the Chat view's conversation side (page module). */
export class ChatPage {
  constructor(readonly page: Page) {}

  async open(url: string) {
    await this.page.goto(`${url}#chat`);
    await this.ready();
  }

  async ready() {
    await expect(this.page.locator('html[data-app-state="ready"]')).toBeAttached();
    await expect(this.page.getByTestId('chat-page')).toBeVisible();
  }

  composer = () => this.page.getByTestId('composer');
  send = () => this.page.getByTestId('composer-send');
  stop = () => this.page.getByTestId('composer-stop');
  suggestions = () => this.page.getByTestId('skill-suggestion');

  conversations = () => this.page.getByTestId('conversation');
  conversation = (title: string) => this.page.locator(`[data-testid="conversation"][data-title="${title}"]`);
  activeConversation = () => this.page.locator('[data-testid="conversation"]:has([aria-current="true"])');
  search = () => this.page.getByTestId('conversation-search');
  newChat = () => this.page.getByTestId('new-conversation');
  header = () => this.page.getByTestId('thread-header');

  turns = () => this.page.getByTestId('turn');
  lastTurn = () => this.turns().last();
  answer = (turn: Locator = this.lastTurn()) => turn.getByTestId('answer');
  /** The answer's last stretch of text: what it says after its last step (earlier text is in `flow`). */
  answerText = (turn: Locator = this.lastTurn()) => turn.getByTestId('answer-text').last();
  chip = (turn: Locator = this.lastTurn()) => turn.getByTestId('route-chip');
  toolCard = (name: string, turn: Locator = this.lastTurn()) =>
    turn.locator(`[data-testid="tool-card"][data-name="${name}"]`);
  approval = (turn: Locator = this.lastTurn()) => turn.getByTestId('approval-card');

  /**
   * What an answer shows, top to bottom: its text parts (first words), tool and run cards, and
   * approvals, so a test can check they appear in the order they were streamed.
   */
  flow = (turn: Locator = this.lastTurn()) =>
    this.answer(turn)
      .locator('[data-testid="answer-text"], [data-testid="tool-card"], [data-testid="approval-card"]')
      .evaluateAll((elements) =>
        elements.map((e) => {
          const el = e as HTMLElement;
          if (el.dataset.testid === 'answer-text')
            return `text: ${(el.textContent ?? '').trim().split('\n')[0]}`;
          if (el.dataset.testid === 'tool-card') return `${el.dataset.kind}: ${el.dataset.name}`;
          return `approval: ${el.dataset.status}`;
        }),
      );

  scorePanel = () => this.page.getByTestId('score-panel');
  /** The global approval dialog (features/approvals). */
  dialog = () => this.page.getByTestId('approval-dialog');

  /** Types like a person and sends with Enter. */
  async say(message: string) {
    await this.composer().fill('');
    await this.composer().pressSequentially(message, { delay: 5 });
    await this.composer().press('Enter');
    await expect(this.composer()).toHaveValue('');
  }

  /** Waits until the last answer ended with `status`. */
  async finished(status = 'success') {
    await expect(this.answer()).toHaveAttribute('data-status', status, { timeout: 30_000 });
  }
}
