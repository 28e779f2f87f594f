import { memo } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock';
import { ExternalIcon } from './icons';
import './markdown.css';

interface MarkdownProps {
  source: string;
  /** A relative link (`references/api.md`) was clicked. */
  onRelativeLink?: (path: string) => void;
  testId?: string;
  /** Code blocks get their language and a copy button (chat answers). */
  copyCode?: boolean;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function linkPath(href: string): string {
  const path = href.replace(/^\.\//, '').split('#')[0];
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** The fence's language from the code element's `language-…` class (rehype-highlight keeps it). */
type HastElement = NonNullable<ExtraProps['node']>;

function fenceLanguage(node: HastElement | undefined): string | null {
  const code = node?.children.find((c): c is HastElement => c.type === 'element' && c.tagName === 'code');
  const classes = code?.properties.className;
  const list = Array.isArray(classes) ? classes.map(String) : [];
  return list.find((c) => c.startsWith('language-'))?.slice('language-'.length) ?? null;
}

function components(onRelativeLink?: (path: string) => void, copyCode = false): Components {
  return {
    ...(copyCode && {
      pre({ node, children }) {
        return <CodeBlock language={fenceLanguage(node)}>{children}</CodeBlock>;
      },
    }),
    a({ href = '', children }) {
      // Only https leaves the app (the window opens it externally); nothing navigates the app itself.
      if (/^https:\/\//i.test(href)) {
        return (
          <a href={href} target="_blank" rel="noreferrer" className="md-external" title={href}>
            {children}
            <ExternalIcon size={11} />
          </a>
        );
      }
      if (href && !href.startsWith('#') && !SCHEME.test(href) && onRelativeLink) {
        const path = linkPath(href);
        return (
          <button
            type="button"
            className="md-link"
            title={`Open ${path}`}
            onClick={() => onRelativeLink(path)}
          >
            {children}
          </button>
        );
      }
      return (
        <span className="md-link md-link--inert" title={href}>
          {children}
        </span>
      );
    },
    img({ src, alt }) {
      // The CSP allows only bundled and data: images; remote ones would only log violations.
      if (typeof src === 'string' && src.startsWith('data:image/')) return <img src={src} alt={alt ?? ''} />;
      return (
        <span className="md-image" title={typeof src === 'string' ? src : undefined}>
          image{alt ? `: ${alt}` : ''}
        </span>
      );
    },
    table({ children }) {
      return (
        <div className="md-table">
          <table>{children}</table>
        </div>
      );
    },
  };
}

/** Skill Markdown: GFM, highlighted code, no raw HTML, links that cannot navigate the app. */
export const Markdown = memo(function Markdown({ source, onRelativeLink, testId, copyCode }: MarkdownProps) {
  return (
    <div className="markdown" data-testid={testId}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[[rehypeHighlight, { detect: false }]]}
        components={components(onRelativeLink, copyCode)}
      >
        {source}
      </ReactMarkdown>
    </div>
  );
});
