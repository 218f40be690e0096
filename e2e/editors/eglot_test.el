;;; eglot_test.el --- driven by emacs_test.go  -*- lexical-binding: t -*-
;; `emacs --batch -l eglot_test.el' with SHGUARD (the binary), SCRIPT (the
;; file to open, in a git repository: eglot's project) and RESULT (where
;; to write what happened). It uses eglot as a user would: shguard lsp for
;; sh-mode, flymake's diagnostics, then the source.fixAll.shguard code
;; action applied with eglot's own workspace-edit code, and a save.
(require 'eglot)
(require 'json)
(setq eglot-server-programs `((sh-mode . (,(getenv "SHGUARD") "lsp"))))
(setq eglot-sync-connect t)
(defun result (alist)
  (with-temp-file (getenv "RESULT") (insert (json-encode alist)))
  (kill-emacs 0))
(defun wait-for (pred secs)
  (let ((end (+ (float-time) secs)))
    (while (and (not (funcall pred)) (< (float-time) end))
      (accept-process-output nil 0.05))
    (funcall pred)))
(condition-case err
    (progn
      (find-file (getenv "SCRIPT"))
      (sh-mode)
      (apply #'eglot (eglot--guess-contact))
      ;; flymake defers its checks in a buffer no window shows (batch):
      ;; ask it to run, as showing the buffer would
      (unless (wait-for (lambda () (flymake-start nil t) (flymake-diagnostics)) 30)
        (result '((error . "no diagnostics"))))
      (let* ((diags (mapcar (lambda (d)
                              `((line . ,(line-number-at-pos (flymake-diagnostic-beg d)))
                                (text . ,(flymake-diagnostic-text d))
                                (type . ,(symbol-name (flymake-diagnostic-type d)))))
                            (flymake-diagnostics)))
             (actions (eglot-code-actions (point-min) (point-max) "source.fixAll.shguard"))
             (fix (car actions)))
        (unless fix (result `((error . "no source.fixAll.shguard action") (diagnostics . ,diags))))
        (eglot--apply-workspace-edit (plist-get fix :edit))
        (save-buffer)
        (result `((diagnostics . ,diags) (action . ,(plist-get fix :title))))))
  (error (result `((error . ,(format "%S" err))))))
