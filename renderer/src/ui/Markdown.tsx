import { memo } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import type { PluggableList } from 'unified';
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
  /**
   * The level a `#` heading gets (default 2): the page's own h1 and headings stay above the
   * text's, so a skill's `# Title` is not a second page title to a screen reader.
   */
  headingLevel?: number;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * One highlighter for every Markdown view. rehype-highlight's attacher builds a new lowlight
 * with all its grammars each time a processor is made, which react-markdown does on every
 * render of every message: a conversation of 400 answers spent most of a minute on it.
 */
const highlighter = rehypeHighlight({ detect: false });
const REHYPE: PluggableList = [() => highlighter];
const REMARK: PluggableList = [remarkGfm];

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

const LEVELS = [1, 2, 3, 4, 5, 6] as const;
type HeadingTag = `h${(typeof LEVELS)[number]}`;

/** `#`…`######` shifted down to start at `base`, styled by their Markdown level (`md-h1`…). */
function headings(base: number): Components {
  return Object.fromEntries(
    LEVELS.map((level) => {
      const Tag = `h${Math.min(6, level + base - 1)}` as HeadingTag;
      const Heading: Components[HeadingTag] = ({ children }) => (
        <Tag className={`md-h${level}`}>{children}</Tag>
      );
      return [`h${level}`, Heading];
    }),
  );
}

function components(onRelativeLink?: (path: string) => void, copyCode = false, headingLevel = 2): Components {
  return {
    ...headings(headingLevel),
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
export const Markdown = memo(function Markdown({
  source,
  onRelativeLink,
  testId,
  copyCode,
  headingLevel,
}: MarkdownProps) {
  return (
    <div className="markdown" data-testid={testId}>
      <ReactMarkdown
        remarkPlugins={REMARK}
        rehypePlugins={REHYPE}
        components={components(onRelativeLink, copyCode, headingLevel)}
      >
        {source}
      </ReactMarkdown>
    </div>
  );
});
