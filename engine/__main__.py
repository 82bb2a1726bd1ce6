from engine.tools.cli import main

raise SystemExit(main())
