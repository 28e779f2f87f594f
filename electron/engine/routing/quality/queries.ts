/**
 * The routing-quality eval's labelled queries (issue 4): query → acceptable skills, or none.
 * Over the bundled skills plus a fixed slice of ../shared/corpus/skills (see corpusSlice),
 * in English and Chinese, with near-miss negatives (a trigger word, a different intent).
 */
export interface LabelledQuery {
  query: string;
  /** Any of these is a correct primary; empty means "no skill should be chosen". */
  expect: string[];
}

const q = (query: string, ...expect: string[]): LabelledQuery => ({ query, expect });

export const LABELLED_QUERIES: LabelledQuery[] = [
  // Bundled skills, English.
  q('Organize the invoices in my Downloads folder into a spreadsheet', 'invoice-organizer'),
  q('Tally these receipts for my expense report', 'invoice-organizer'),
  q('Review this pull request for security bugs before I merge', 'code-review', 'requesting-code-review'),
  q('Profile sales.csv: missing values and column types', 'csv-summary'),
  q('Generate release notes from the git log since v1.2', 'git-changelog'),
  q('Pretty print this JSON and tell me if it is valid: {"a":1,}', 'json-format'),
  q("Give me a meeting minutes template for tomorrow's standup", 'meeting-notes'),
  q('Extract the text from contract.pdf, pages 2 to 5', 'pdf-to-text'),
  q('Save a note: buy milk and call the bank', 'save-note'),
  q('Translate this paragraph into English: 我们明天上午十点开会', 'translate-zh-en'),
  q('How many kilometers is 26.2 miles?', 'unit-converter'),
  q('Convert 100 fahrenheit to celsius', 'unit-converter'),
  q('Research the latest news on WebGPU browser support with sources', 'web-research'),
  // Bundled skills, Chinese.
  q('帮我整理这些发票，做成报销表格', 'invoice-organizer'),
  q('把这段话翻译成英文：今天天气很好', 'translate-zh-en'),
  q('帮我写一份会议纪要模板', 'meeting-notes'),
  q('3斤是多少公斤', 'unit-converter'),
  q('帮我做一下代码审查，看看有没有 bug', 'code-review'),
  q('生成这个仓库的更新日志', 'git-changelog'),
  q('记一下：明天下午三点交房租', 'save-note'),
  q('提取pdf文字，只要第一页', 'pdf-to-text'),
  q('上网查一下最新的 Node.js 版本', 'web-research'),
  q('这个 csv 文件帮我做个数据概览', 'csv-summary'),
  q('格式化 json：{"name":"x"}', 'json-format'),
  // Corpus skills.
  q('Check the weather forecast for Berlin tomorrow, will it rain?', 'weather'),
  q('Summarize this YouTube video for me: https://youtube.com/watch?v=x', 'summarize'),
  q('Transcribe this audio recording with Whisper locally', 'openai-whisper'),
  q('Play some jazz on Spotify', 'spotify-player'),
  q('Capture the output of my tmux pane and send keys to it', 'tmux'),
  q('Read the database password secret from 1Password', '1password'),
  q('Add a card to my Trello board for the launch checklist', 'trello'),
  q('Make me an animated GIF for Slack of a cat dancing', 'slack-gif-creator'),
  q('Test my local web app with Playwright and take a screenshot', 'webapp-testing'),
  q('Build an MCP server that wraps the GitHub API', 'mcp-builder'),
  q('Create generative art with p5.js flow fields', 'algorithmic-art'),
  q('Fix the failing GitHub Actions CI checks on my PR', 'gh-fix-ci', 'github'),
  q('Create a new ticket in Linear for the login bug', 'linear'),
  q('Deploy my app to Vercel and give me the preview link', 'deploy-to-vercel'),
  q('My Node.js service has a memory leak, help me compare heap snapshots', 'memory-leak-debugging'),
  q('Audit the accessibility of my page: ARIA labels and keyboard navigation', 'a11y-debugging'),
  q('Edit this PDF: change the title on page one', 'nano-pdf'),
  q('Set up a git worktree for this feature branch', 'using-git-worktrees'),
  q('北京明天天气怎么样，会下雨吗？', 'weather'),
  // Near-miss negatives: a trigger word with another intent, and plain chat.
  q('Make me an invoice template in Word'),
  q('我要给客户开发票，税率选多少？'),
  q('What is the difference between a pro forma invoice and a commercial invoice?'),
  q('How do I prepare for my annual performance review?'),
  q('Explain what standard deviation means'),
  q('Write a TypeScript function that fetches JSON from an API'),
  q('What are good note-taking apps for students?'),
  q('Schedule a meeting with the design team next Tuesday'),
  q('How do I resolve a merge conflict during a git rebase?'),
  q('Translate this sentence into Japanese: good morning'),
  q('How is the euro exchange rate calculated by banks?'),
  q('Search this repo for TODO comments'),
  q('Tell me a joke about programmers'),
  q('今天心情不好，陪我聊聊天'),
  q('帮我写一首关于秋天的诗'),
  q("What's the capital of Australia?"),
  q('Write a short story about a dragon'),
  q('How do I password protect a PDF on a Mac?'),
  q('Review my essay on climate change for grammar'),
  q('Book a meeting room for 3pm'),
  q('预约会议室，下午三点'),
  q('解释一下什么是标准差'),
  q('How many calories are in a banana?'),
  q('Write a commit message for these changes'),
  q("Thanks, that's all for today!"),
  q('What does JSON stand for?'),
];
