/**
 * What `tsc --watch` prints around each compile, in every language it ships (TypeScript 5.9.3,
 * lib/<locale>/diagnosticMessages.generated.json, quoted): 6031/6032 start a compile, 6194 ends
 * it with an error count ({0}), 6193 with one error. Lines carry a time prefix in the user's
 * locale ("[12:00:00 PM] " when pretty, "12:00:00 - " otherwise), so matching is unanchored.
 */
interface TscWatchMessages {
  /** 6194 "Found {0} errors. Watching for file changes." */
  found: string;
  /** 6193 "Found 1 error. Watching for file changes." */
  foundOne: string;
  /** 6031 "Starting compilation in watch mode..." */
  started: string;
  /** 6032 "File change detected. Starting incremental compilation..." */
  changed: string;
}

export const TSC_WATCH_MESSAGES: Readonly<Record<string, TscWatchMessages>> = {
  en: {
    found: 'Found {0} errors. Watching for file changes.',
    foundOne: 'Found 1 error. Watching for file changes.',
    started: 'Starting compilation in watch mode...',
    changed: 'File change detected. Starting incremental compilation...',
  },
  cs: {
    found: 'Byl nalezen tento počet chyb: {0}. Sledují se změny souborů.',
    foundOne: 'Byla nalezena 1 chyba. Sledují se změny souborů.',
    started: 'Spouští se kompilace v režimu sledování...',
    changed: 'Zjistila se změna souboru. Spouští se přírůstková kompilace...',
  },
  de: {
    found: '{0} Fehler gefunden. Es wird auf Dateiänderungen überwacht.',
    foundOne: '1 Fehler gefunden. Es wird auf Dateiänderungen überwacht.',
    started: 'Kompilierung im Überwachungsmodus wird gestartet...',
    changed: 'Es wurde eine Dateiänderung erkannt. Die inkrementelle Kompilierung wird gestartet...',
  },
  es: {
    found: 'Se encontraron {0} errores. Supervisando los cambios del archivo.',
    foundOne: 'Se encontró un error. Supervisando los cambios del archivo.',
    started: 'Iniciando la compilación en modo de inspección...',
    changed: 'Se detectó un cambio de archivo. Iniciando la compilación incremental...',
  },
  fr: {
    found: '{0} erreurs trouvées. Changements de fichier sous surveillance.',
    foundOne: '1 erreur trouvée. Changements de fichier sous surveillance.',
    started: 'Démarrage de la compilation en mode espion...',
    changed: 'Modification de fichier détectée. Démarrage de la compilation incrémentielle...',
  },
  it: {
    found: 'Sono stati trovati {0} errori. Verranno individuate le modifiche ai file.',
    foundOne: 'È stato trovato 1 errore. Verranno individuate le modifiche ai file.',
    started: 'Avvio della compilazione in modalità espressione di controllo...',
    changed: 'È stata rilevata una modifica ai file. Verrà avviata la compilazione incrementale...',
  },
  ja: {
    found: '{0} 件のエラーが見つかりました。ファイルの変更をモニタリングしています。',
    foundOne: '1 件のエラーが見つかりました。ファイルの変更をモニタリングしています。',
    started: 'ウォッチ モードでのコンパイルを開始しています...',
    changed: 'ファイルの変更が検出されました。インクリメンタル コンパイルを開始しています...',
  },
  ko: {
    found: '{0}개 오류가 발견되었습니다. 파일이 변경되었는지 확인하는 중입니다.',
    foundOne: '1개 오류가 발견되었습니다. 파일이 변경되었는지 확인하는 중입니다.',
    started: '감시 모드에서 컴파일을 시작하는 중...',
    changed: '파일 변경이 검색되었습니다. 증분 컴파일을 시작하는 중...',
  },
  pl: {
    found: 'Znalezione błędy: {0}. Obserwowanie zmian plików.',
    foundOne: 'Znaleziono 1 błąd. Obserwowanie zmian plików.',
    started: 'Trwa uruchamianie kompilacji w trybie śledzenia...',
    changed: 'Wykryto zmianę pliku. Trwa rozpoczynanie kompilacji przyrostowej...',
  },
  'pt-br': {
    found: '{0} erros encontrados. Monitorando alterações de arquivo.',
    foundOne: 'Um erro encontrado. Monitorando alterações de arquivo.',
    started: 'Iniciando compilação no modo de inspeção...',
    changed: 'Alteração do arquivo detectada. Iniciando compilação incremental...',
  },
  ru: {
    found: 'Найдено ошибок: {0}. Отслеживаются изменения в файлах.',
    foundOne: 'Найдена одна ошибка. Отслеживаются изменения в файлах.',
    started: 'Запуск компиляции в режиме наблюдения...',
    changed: 'Обнаружено изменение в файле. Запускается инкрементная компиляция...',
  },
  tr: {
    found: '{0} hata bulundu. Dosya değişiklikleri izleniyor.',
    foundOne: '1 hata bulundu. Dosya değişiklikleri izleniyor.',
    started: 'Derleme, izleme modunda başlatılıyor...',
    changed: 'Dosya değişikliği algılandı. Artımlı derleme başlatılıyor...',
  },
  'zh-cn': {
    found: '找到 {0} 个错误。注意文件更改。',
    foundOne: '找到 1 个错误。注意文件更改。',
    started: '在监视模式下开始编译...',
    changed: '检测到文件更改。正在启动增量编译...',
  },
  'zh-tw': {
    found: '找到 {0} 個錯誤。正在監看檔案變更。',
    foundOne: '找到 1 個錯誤。正在監看檔案變更。',
    started: '在監看模式中開始編譯...',
    changed: '偵測到檔案變更。正在啟動累加編譯...',
  },
};
