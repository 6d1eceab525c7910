#include "app/gui/pacs/DicomWebNodeDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace delineate::app {

namespace pacs = core::pacs;

DicomWebNodeDialog::DicomWebNodeDialog(const pacs::DicomNode& node, QWidget* parent)
    : QDialog(parent),
      name_(new QLineEdit(QString::fromStdString(node.name), this)),
      url_(new QLineEdit(QString::fromStdString(node.dicomWebUrl), this)),
      auth_(new QComboBox(this)),
      user_(new QLineEdit(QString::fromStdString(node.user), this)),
      secret_(new QLineEdit(this)),
      ca_(new QLineEdit(QString::fromStdString(node.caFile), this)),
      deidentify_(new QCheckBox(tr("De-identify what is sent (a research archive)"), this)),
      problem_(new QLabel(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
  setObjectName(QStringLiteral("dicomWebNodeDialog"));
  setWindowTitle(tr("DICOMweb node"));
  url_->setObjectName(QStringLiteral("dicomWebUrl"));
  url_->setPlaceholderText(QStringLiteral("https://pacs.example.org/dicom-web"));
  url_->setToolTip(
      tr("The root of its QIDO-RS, WADO-RS and STOW-RS routes: the URL before "
         "/studies (for Orthanc, http://host:8042/dicom-web)."));
  auth_->setObjectName(QStringLiteral("dicomWebAuth"));
  auth_->addItem(tr("None"), int(pacs::WebAuth::None));
  auth_->addItem(tr("Basic (user and password)"), int(pacs::WebAuth::Basic));
  auth_->addItem(tr("Bearer token"), int(pacs::WebAuth::Bearer));
  auth_->setCurrentIndex(auth_->findData(int(node.auth)));
  user_->setObjectName(QStringLiteral("dicomWebUser"));
  secret_->setObjectName(QStringLiteral("dicomWebSecret"));
  secret_->setEchoMode(QLineEdit::Password);
  secret_->setPlaceholderText(tr("kept in the keychain; leave empty to keep it"));
  ca_->setObjectName(QStringLiteral("dicomWebCa"));
  ca_->setPlaceholderText(tr("the system's certificates only"));
  deidentify_->setChecked(node.deidentify);
  problem_->setObjectName(QStringLiteral("dicomWebProblem"));
  problem_->setWordWrap(true);
  auto* browse = new QPushButton(tr("Browse…"), this);
  auto* caRow = new QHBoxLayout;
  caRow->addWidget(ca_, 1);
  caRow->addWidget(browse);
  auto* form = new QFormLayout;
  form->addRow(tr("Name"), name_);
  form->addRow(tr("Base URL"), url_);
  form->addRow(tr("Authentication"), auth_);
  form->addRow(tr("User"), user_);
  form->addRow(tr("Password or token"), secret_);
  form->addRow(tr("Trust this CA (PEM)"), caRow);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(deidentify_);
  layout->addWidget(problem_);
  layout->addWidget(buttons_);
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString file = QFileDialog::getOpenFileName(this, tr("CA certificates"), ca_->text(),
                                                      tr("PEM files (*.pem *.crt);;All files (*)"));
    if (!file.isEmpty()) {
      ca_->setText(file);
    }
  });
  for (QLineEdit* edit : {name_, url_, user_, ca_}) {
    connect(edit, &QLineEdit::textChanged, this, &DicomWebNodeDialog::update);
  }
  connect(auth_, &QComboBox::currentIndexChanged, this, &DicomWebNodeDialog::update);
  update();
}

pacs::DicomNode DicomWebNodeDialog::node() const {
  pacs::DicomNode n;
  n.name = name_->text().trimmed().toStdString();
  n.dicomWebUrl = url_->text().trimmed().toStdString();
  n.auth = static_cast<pacs::WebAuth>(auth_->currentData().toInt());
  n.user = n.auth == pacs::WebAuth::Basic ? user_->text().trimmed().toStdString() : std::string();
  n.caFile = ca_->text().trimmed().toStdString();
  n.deidentify = deidentify_->isChecked();
  return n;
}

std::string DicomWebNodeDialog::secret() const {
  return secret_->text().toStdString();
}

void DicomWebNodeDialog::update() {
  const pacs::DicomNode n = node();
  user_->setEnabled(n.auth == pacs::WebAuth::Basic);
  secret_->setEnabled(n.auth != pacs::WebAuth::None);
  std::optional<std::string> problem =
      n.dicomWebUrl.empty() ? std::optional<std::string>("give the base URL") : n.problem();
  problem_->setText(problem ? QString::fromStdString(*problem) : QString());
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(!problem);
}

}  // namespace delineate::app
