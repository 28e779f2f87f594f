import {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  safeStorage,
  screen,
  session,
  shell,
  type MenuItemConstructorOptions,
} from 'electron';
import path from 'node:path';
import { createEngine } from './engine';
import { isRendererFrame, registerIpc, rendererUrlOf } from './ipc';
import { createRpcServer } from './rpc/server';
import { CONTENT_SECURITY_POLICY } from './host/static';
import { loadWindowState, saveWindowState } from './windowState';

// A thin shell (STYLE: keep main thin): every behaviour lives in the engine, the RPC server
// and the renderer, which are tested in browser mode; this file only wires Electron to them.

const rendererIndex = path.join(__dirname, '..', 'renderer', 'index.html');
const isExternalLinkAllowed = (url: string) => {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
};

if (!app.requestSingleInstanceLock()) app.quit();

app.on('second-instance', () => {
  const [window] = BrowserWindow.getAllWindows();
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.focus();
});

app.on('web-contents-created', (_event, contents) => {
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLinkAllowed(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

function buildMenu(): Menu {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        {
          label: 'Agent Skills specification',
          click: () => void shell.openExternal('https://agentskills.io/specification'),
        },
      ],
    },
  ];
  return Menu.buildFromTemplate(template);
}

async function start(): Promise<void> {
  const home = process.env.SKILLDECK_HOME || app.getPath('userData');
  const engine = await createEngine({
    home,
    bundledDir: app.isPackaged
      ? path.join(process.resourcesPath, 'skills')
      : path.join(app.getAppPath(), 'skills'),
    workspace: process.env.SKILLDECK_WORKSPACE || process.cwd(),
    version: app.getVersion(),
    watch: true,
    // API keys through the OS keychain (DESIGN §6). Linux without a keyring falls back to a
    // hard-coded password ("basic_text"): no better than the 0600 file, so say it is unavailable.
    cipher: {
      available: () =>
        safeStorage.isEncryptionAvailable() &&
        !(process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text'),
      encrypt: (text) => safeStorage.encryptString(text),
      decrypt: (data) => safeStorage.decryptString(data),
    },
  });
  // Closes the file watcher and drops unfinished install previews' staging dirs.
  app.on('will-quit', () => void engine.close());
  // Build the routing index while the window loads, not on the user's first keystroke.
  setTimeout(() => engine.routing.index(), 0);

  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });

  const rendererUrl = rendererUrlOf(rendererIndex);
  const rpc = createRpcServer(engine);
  registerIpc(ipcMain, rpc, {
    isTrustedSender: (event) => isRendererFrame(event, rendererUrl),
    targets: () => BrowserWindow.getAllWindows().map((window) => window.webContents),
  });
  Menu.setApplicationMenu(buildMenu());

  const stateFile = path.join(home, 'window-state.json');
  const state = loadWindowState(
    stateFile,
    screen.getAllDisplays().map((display) => display.workArea),
  );
  const window = new BrowserWindow({
    ...(state.restored ? state.bounds : { width: state.bounds.width, height: state.bounds.height }),
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'SkillDeck',
    webPreferences: {
      preload: path.join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  if (state.maximized) window.maximize();
  // DESIGN §4: closing the window denies what waits for approval (a reload keeps it).
  const detach = rpc.attachAnswerer();
  window.on('closed', () => {
    detach();
    engine.execution.broker.denyAll('disconnect', 'the window was closed');
  });
  window.once('ready-to-show', () => window.show());
  window.on('close', () => {
    saveWindowState(stateFile, { bounds: window.getNormalBounds(), maximized: window.isMaximized() });
  });
  await window.loadFile(rendererIndex);
}

app.whenReady().then(start, (error: unknown) => {
  console.error(error);
  app.exit(1);
});
app.on('window-all-closed', () => app.quit());
