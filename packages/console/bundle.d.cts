/** The console's script and stylesheet, bundled from its sources. */
export interface ConsoleAssets {
  js: string;
  css: string;
}

export declare function bundleConsole(): Promise<ConsoleAssets>;
