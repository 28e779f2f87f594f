import {
  useEffect,
  useId,
  useRef,
  type KeyboardEvent,
  type KeyboardEventHandler,
  type ReactNode,
} from 'react';
import { XIcon } from './icons';
import './modal.css';

interface ModalProps {
  title: ReactNode;
  /** A line under the title. */
  subtitle?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'small' | 'medium' | 'large';
  testId?: string;
  /** Ids of what a screen reader reads after the title when the dialog opens (`aria-describedby`). */
  describedBy?: string;
  /** Keys anywhere in the dialog (accelerators); Escape stays with `onClose`. */
  onKeyDown?: KeyboardEventHandler<HTMLDialogElement>;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Tab past the last control comes round to the first, Shift+Tab before the first to the last.
 * A native modal dialog lets Tab out of the page (to the browser's own UI, or in Electron to
 * the bare document), where Enter and Escape no longer reach the dialog.
 */
function wrapTab(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  const controls = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => el.getClientRects().length > 0,
  );
  const [first, last] = [controls[0], controls[controls.length - 1]];
  const edge = event.shiftKey ? first : last;
  if (!edge || document.activeElement !== edge) return;
  event.preventDefault();
  (event.shiftKey ? last : first).focus();
}

/**
 * The dialog pattern's focus return: back to what had the focus when the dialog opened (the
 * message box under an approval, the button that opened it), else to the main view. React removes
 * the dialog before its cleanup runs, so the browser's own return after close() never happens, and
 * a keyboard would start again from the top of the page. Focus moved elsewhere meanwhile stays.
 */
function returnFocus(opener: Element | null, dialog: HTMLDialogElement | null) {
  const now = document.activeElement;
  if (now && now !== document.body && now.isConnected && !dialog?.contains(now)) return;
  if (opener instanceof HTMLElement && opener.isConnected && !dialog?.contains(opener)) {
    opener.focus({ preventScroll: true });
    return;
  }
  // Focusable only for this: a lasting tabindex would make a click on the view's text focus it.
  const main = document.querySelector<HTMLElement>('main');
  if (!main) return;
  main.tabIndex = -1;
  main.addEventListener('blur', () => main.removeAttribute('tabindex'), { once: true });
  main.focus({ preventScroll: true });
}

/** A native modal `<dialog>`: the top layer and Escape come with it; the focus trap is closed here. */
export function Modal({
  title,
  subtitle,
  onClose,
  children,
  footer,
  size = 'small',
  testId,
  describedBy,
  onKeyDown,
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement;
    if (dialog && !dialog.open) dialog.showModal();
    // showModal() moves focus to the first focusable element; React's autoFocus ran before it.
    dialog?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      dialog?.close();
      returnFocus(opener, dialog);
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`modal modal--${size}`}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      data-testid={testId}
      onKeyDown={(event) => {
        wrapTab(event);
        onKeyDown?.(event);
      }}
      onCancel={(event) => {
        // Escape closes through the store, so its state and the dialog never disagree.
        event.preventDefault();
        onClose();
      }}
    >
      <div className="modal__frame">
        <header className="modal__header">
          <div className="modal__titles">
            <h2 className="modal__title" id={titleId}>
              {title}
            </h2>
            {subtitle && <div className="modal__subtitle">{subtitle}</div>}
          </div>
          <button type="button" className="icon-button" onClick={onClose} aria-label="Close">
            <XIcon size={16} />
          </button>
        </header>
        <div className="modal__body">{children}</div>
        {footer && <footer className="modal__footer">{footer}</footer>}
      </div>
    </dialog>
  );
}
